/**
 * The service's command line (`npm run server -- …`, `npm run accounts -- <command> …`):
 *   serve        [--port 8089] [--host 127.0.0.1] [--db ./data/messages.db] [--seed seed.json]
 *                [--max-connections 1000] [--headers-timeout 10000] [--request-timeout 30000]
 *                [--keep-alive-timeout 5000] [--max-kdf 4] [--max-kdf-queue 64]
 *                [--max-connections-per-address 100] [--max-bodies-per-address 32]
 *                [--store-timeout 5000] [--trust-proxy 10.0.0.2,…]
 *                [--public-url https://api.example.com] [--allowed-hosts api.example.com,…]
 *                [--bindings ApiSoap,ApiSoap12]
 *   add-account  [--db …] --email … --password … --user-id …
 *   import       [--db …] --email … --file messages.json
 *                (messages.json: a JSON array in the seed file's message format)
 *   seed         [--db …] --file seed.json
 * --db takes a SQLite file or a postgres:// URL; its default is $DATABASE_URL, else
 * ./data/messages.db. Exit status: 0 done, 1 the command failed, 2 bad usage. Errors are one line,
 * without a stack trace.
 */
import { pathToFileURL } from "node:url";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { readMessagesFile, readSeedFile } from "./seed-file.js";
import { SERVER_LIMITS, startServer, type ServerLimits } from "./server.js";
import { describeTarget, open, type MessageStore } from "./store.js";

export { startServer } from "./server.js";

export const DEFAULT_DB = "./data/messages.db";
export const DEFAULT_PORT = 8089;
export const DEFAULT_HOST = "127.0.0.1";

const integer =
  (min: number, max: number) =>
  (v: string): number => {
    if (!/^-?\d+$/.test(v.trim()) || Number(v) < min || Number(v) > max)
      throw new InvalidArgumentError(`It must be an integer from ${min} to ${max}.`);
    return Number(v);
  };
const nonEmpty = (v: string): string => {
  if (v.trim() === "") throw new InvalidArgumentError("It must not be empty.");
  return v;
};

/** A listen error as a sentence. */
function listenError(e: unknown, host: string, port: number): Error {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE") return new Error(`port ${port} on ${host} is already in use`);
  if (code === "EACCES") return new Error(`not allowed to listen on port ${port} on ${host}`);
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EAI_AGAIN")
    return new Error(`cannot listen on host ${host}: it is not an address of this machine`);
  return e instanceof Error ? e : new Error(String(e));
}

async function withStore<T>(db: string, f: (store: MessageStore) => Promise<T>): Promise<T> {
  const store = await open(db);
  try {
    return await f(store);
  } finally {
    await store.close();
  }
}

const DB_HELP = "SQLite file (created with its folder if missing) or postgres:// URL";

/** `--db`, whose default (from DATABASE_URL, perhaps) is shown in --help without its password. */
const dbOption = (db: string): Option =>
  new Option("--db <target>", DB_HELP).default(db, JSON.stringify(describeTarget(db)));

/** The `serve` options that set a limit, with their help and the ServerLimits field they set. */
const LIMIT_OPTIONS: [flag: string, key: keyof ServerLimits, help: string][] = [
  ["--max-connections <n>", "maxConnections", "open connections at most (idle ones close first)"],
  ["--headers-timeout <ms>", "headersTimeoutMs", "time to receive a request's headers"],
  ["--request-timeout <ms>", "requestTimeoutMs", "time to receive a whole request"],
  ["--keep-alive-timeout <ms>", "keepAliveTimeoutMs", "how long an idle connection stays open"],
  ["--max-kdf <n>", "maxConcurrentKdf", "password hashes computed at once"],
  ["--max-kdf-queue <n>", "maxQueuedKdf", "logins waiting for a hash slot before 503"],
  ["--max-connections-per-address <n>", "maxConnectionsPerAddress", "connections from one address"],
  ["--max-bodies-per-address <n>", "maxBodiesPerAddress", "bodies arriving from one address"],
  ["--store-timeout <ms>", "storeTimeoutMs", "time for one database call, then 503"],
];

/** The property Commander sets for `flag`: `--max-kdf-queue <n>` sets `maxKdfQueue`. */
const optionName = (flag: string): string =>
  flag
    .split(" ")[0]!
    .slice(2)
    .replace(/-(.)/g, (_, c: string) => c.toUpperCase());

/** What Commander passes to `serve`'s action; the limits by their option names. */
type ServeFlags = {
  port: number;
  host: string;
  db: string;
  seed?: string;
  trustProxy?: string[];
  publicUrl?: string;
  allowedHosts?: string[];
  bindings?: string[];
} & {
  [limit: string]: number;
};

/** Serves until SIGINT or SIGTERM. */
async function runServe(o: ServeFlags): Promise<void> {
  const limits = Object.fromEntries(LIMIT_OPTIONS.map(([f, key]) => [key, o[optionName(f)]]));
  const server = await startServer({
    port: o.port,
    host: o.host,
    dbPath: o.db,
    limits,
    ...(o.seed === undefined ? {} : { seedPath: o.seed }),
    ...(o.trustProxy === undefined ? {} : { trustedProxies: o.trustProxy }),
    ...(o.publicUrl === undefined ? {} : { publicUrl: o.publicUrl }),
    ...(o.allowedHosts === undefined ? {} : { allowedHosts: o.allowedHosts }),
    ...(o.bindings === undefined ? {} : { bindings: o.bindings }),
  }).catch((e: unknown) => {
    throw (e as NodeJS.ErrnoException).syscall === "listen" ||
      (e as NodeJS.ErrnoException).code === "ENOTFOUND"
      ? listenError(e, o.host, o.port)
      : e;
  });
  console.log(`Message Retrieval Service listening on ${server.url}`);
  console.log(`WSDL: ${server.url}?WSDL; database: ${describeTarget(o.db)}; stop with Ctrl+C`);
  await new Promise<void>((resolve) => {
    const stop = () => void server.close().then(resolve);
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

const list = (v: string): string[] => v.split(",").map((a) => nonEmpty(a.trim()));

/** The `serve` command: listens until SIGINT or SIGTERM. */
function serveCommand(program: Command, db: string): void {
  const serve = program
    .command("serve")
    .description("serve the service at http://<host>:<port>/api.asmx (and its WSDL at ?WSDL)")
    .option("--port <n>", "port; 0 picks a free one", integer(0, 65535), DEFAULT_PORT)
    .option("--host <host>", "address to listen on", nonEmpty, DEFAULT_HOST)
    .addOption(dbOption(db))
    .option("--seed <file>", "load accounts and messages from a seed file first (idempotent)")
    .option(
      "--trust-proxy <addresses>",
      "comma-separated balancer addresses whose X-Forwarded-For names the client",
      list,
    )
    .option("--public-url <url>", "the URL clients reach, for ?WSDL and ?disco (default: Host)")
    .option(
      "--allowed-hosts <names>",
      "without --public-url, comma-separated Host names ?WSDL may follow (default: this machine's)",
      list,
    )
    .option("--bindings <ports>", "comma-separated ports to serve (default: all four)", list);
  for (const [flag, key, help] of LIMIT_OPTIONS)
    serve.option(
      flag,
      help,
      integer(key === "maxQueuedKdf" ? 0 : 1, 2 ** 31 - 1),
      SERVER_LIMITS[key],
    );
  serve.action(runServe);
}

/** The commands that change accounts and messages. */
function dataCommands(program: Command, db: string): void {
  program
    .command("add-account")
    .description("add an account; the password is stored only as a salted scrypt hash")
    .addOption(dbOption(db))
    .requiredOption("--email <email>", "e-mail (unique, compared ignoring case)", nonEmpty)
    .requiredOption("--password <password>", "password", nonEmpty)
    .requiredOption("--user-id <n>", "integer user id (unique)", integer(-2147483648, 2147483647))
    .action(async (o: { db: string; email: string; password: string; userId: number }) => {
      if (!(await withStore(o.db, (store) => store.addAccount(o.email, o.password, o.userId))))
        throw new Error(`an account with e-mail ${o.email} or user id ${o.userId} exists already`);
      console.log(`added ${o.email} (user id ${o.userId})`);
    });

  program
    .command("import")
    .description(
      "import messages for an account from a JSON array in the seed file's message format; ids already present are skipped",
    )
    .addOption(dbOption(db))
    .requiredOption("--email <email>", "the account's e-mail", nonEmpty)
    .requiredOption("--file <json>", "the messages")
    .action(async (o: { db: string; email: string; file: string }) => {
      const messages = readMessagesFile(o.file);
      const added = await withStore(o.db, (store) => store.importMessages(o.email, messages));
      console.log(
        `imported ${added} of ${messages.length} messages for ${o.email}${added < messages.length ? ` (${messages.length - added} with ids already present skipped)` : ""}`,
      );
    });

  program
    .command("seed")
    .description("load a seed file: accounts and their messages (idempotent)")
    .addOption(dbOption(db))
    .requiredOption("--file <json>", "the seed file")
    .action(async (o: { db: string; file: string }) => {
      const seed = readSeedFile(o.file);
      await withStore(o.db, (store) => store.seed(seed));
      console.log(`seeded ${describeTarget(o.db)} from ${o.file}`);
    });
}

/** Runs the command line; resolves to the exit status (`serve` only when a signal stops it). */
export async function main(argv: readonly string[]): Promise<number> {
  const program = new Command("message-service")
    .description(
      "The Message Retrieval Service on SQLite or PostgreSQL: SOAP 1.1, SOAP 1.2, HTTP GET and HTTP POST at /api.asmx",
    )
    .exitOverride()
    .showSuggestionAfterError();
  // DATABASE_URL, as hosting platforms set it, stands in for --db.
  const db = process.env["DATABASE_URL"] || DEFAULT_DB;
  serveCommand(program, db);
  dataCommands(program, db);

  try {
    await program.parseAsync([...argv], { from: "user" });
    return 0;
  } catch (e) {
    // Commander has already printed its own usage errors; their exit code becomes 2.
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href)
  process.exitCode = await main(process.argv.slice(2));

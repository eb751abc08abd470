/**
 * The WS-Security interop entry point (`npm run example:wss -- …`, docs/ws-security.md):
 *   serve --port <p> [--host 127.0.0.1] --key <pem> --cert <pem> --trust <pem>…
 *     serves the Message Retrieval Service in memory, seeded from the fixtures' seed; it requires
 *     every SOAP request to be signed over Body and Timestamp by a certificate in --trust, and signs
 *     its answers with --key/--cert.
 *   call <endpoint> --key <pem> --cert <pem> --trust <pem>… [--soap12] [--op GetMessages]
 *        [--email … --password …] [--start … --end …] [--id n]
 *     sends a signed request, verifies the signed answer against --trust and prints the result as
 *     JSON. Exit status: 0 done, 1 the call or the server failed (the error on one line), 2 bad usage.
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { x509Security, type X509SecurityOptions } from "@wsdl-tsgen/runtime/wss";
import { ApiClient } from "../../generated-samples/message-service/index.js";
import { startServer } from "./server.js";

const SEED = new URL("../../fixtures/message-service/asmx/seed.json", import.meta.url).pathname;

interface KeyFlags {
  readonly key: string;
  readonly cert: string;
  readonly trust: string[];
}

const collect = (v: string, all: string[] = []): string[] => [...all, v];
const port = (v: string): number => {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 65535) throw new InvalidArgumentError("It must be a port number.");
  return n;
};
const messageId = (v: string): number => {
  if (!/^-?\d{1,10}$/.test(v)) throw new InvalidArgumentError("It must be a message id (an int).");
  return Number(v);
};
const OPERATIONS = ["GetMessages", "GetMessagesInDateRange", "DeleteMessage"] as const;

/** Signs with --key/--cert, verifies against every --trust. */
function security(o: KeyFlags) {
  const options: X509SecurityOptions = {
    sign: { key: readFileSync(o.key), cert: readFileSync(o.cert) },
    verify: { trust: o.trust.map((t) => readFileSync(t)) },
  };
  return x509Security(options);
}

/** The three key options, on `cmd`. */
const keyed = (cmd: Command): Command =>
  cmd
    .requiredOption("--key <pem>", "the private key that signs")
    .requiredOption("--cert <pem>", "its certificate")
    .requiredOption("--trust <pem>", "a certificate trusted to sign (repeatable)", collect);

async function serve(o: KeyFlags & { port: number; host: string }): Promise<void> {
  const server = await startServer({
    port: o.port,
    host: o.host,
    dbPath: ":memory:",
    seedPath: SEED,
    security: security(o),
  });
  console.log(`Message Retrieval Service listening on ${server.url} (signed requests only)`);
  await new Promise<void>((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve());
  });
  await server.close();
}

interface CallFlags extends KeyFlags {
  readonly soap12?: boolean;
  readonly op: (typeof OPERATIONS)[number];
  readonly email: string;
  readonly password: string;
  readonly start?: string;
  readonly end?: string;
  readonly id?: number;
}

async function call(endpoint: string, o: CallFlags): Promise<void> {
  const client = new ApiClient({
    endpoint,
    port: o.soap12 ? "ApiSoap12" : "ApiSoap",
    security: security(o),
  });
  const who = { email: o.email, password: o.password };
  let result: unknown;
  if (o.op === "GetMessages") result = await client.getMessages(who);
  else if (o.op === "GetMessagesInDateRange")
    result = await client.getMessagesInDateRange({
      ...who,
      startDate: o.start ?? "1900-01-01T00:00:00",
      endDate: o.end ?? "2100-01-01T00:00:00",
    });
  else result = await client.deleteMessage({ ...who, MessageId: o.id ?? 0 });
  console.log(JSON.stringify(result ?? null));
}

export async function main(argv: readonly string[]): Promise<number> {
  const program = new Command("example:wss").exitOverride();
  keyed(program.command("serve").description("serve the service, signed requests only"))
    .option("--port <p>", "the port (0 picks one)", port, 8089)
    .option("--host <host>", "the address to listen on", "127.0.0.1")
    .action(serve);
  keyed(program.command("call").argument("<endpoint>").description("send one signed request"))
    .option("--soap12", "SOAP 1.2 rather than 1.1")
    .addOption(
      new Option("--op <name>", "the operation").choices(OPERATIONS).default("GetMessages"),
    )
    .option("--email <email>", "the account", "alice@example.com")
    .option("--password <password>", "its password", "alice-pass")
    .option("--start <dateTime>", "GetMessagesInDateRange's start")
    .option("--end <dateTime>", "GetMessagesInDateRange's end")
    .option("--id <n>", "DeleteMessage's message id", messageId)
    .action(call);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    console.error(`error: ${(e instanceof Error ? e.message : String(e)).replace(/\s+/g, " ")}`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href)
  process.exitCode = await main(process.argv.slice(2));

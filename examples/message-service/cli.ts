/**
 * The service's command line:
 *   serve        --port 8089 --host 127.0.0.1 --db ./data/messages.db --seed seed.json
 *   add-account  --db … --email … --password … --user-id …
 *   import       --db … --email … --file messages.json
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Command, CommanderError } from "commander";
import { readSeed, startServer } from "./server.js";
import { openStore, type SeedMessage } from "./store.js";

export { startServer } from "./server.js";

const DEFAULT_DB = "./data/messages.db";

const integer = (name: string) => (v: string): number => {
  if (!/^\d+$/.test(v)) throw new CommanderError(2, "usage", `error: ${name} must be a non-negative integer, got '${v}'`);
  return Number(v);
};

export async function main(argv: readonly string[]): Promise<number> {
  const program = new Command("message-service").description("The Message Retrieval Service").exitOverride();

  program
    .command("serve")
    .description("serve SOAP 1.1, SOAP 1.2, HTTP GET and HTTP POST at /api.asmx")
    .option("--port <n>", "port (0 picks a free one)", integer("--port"), 8089)
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--db <file>", "SQLite database file", DEFAULT_DB)
    .option("--seed <file>", "load accounts and messages from a seed file first (idempotent)")
    .action(async (o: { port: number; host: string; db: string; seed?: string }) => {
      const server = await startServer({ port: o.port, host: o.host, dbPath: o.db, ...(o.seed ? { seedPath: o.seed } : {}) });
      console.log(`Message Retrieval Service listening on ${server.url} (WSDL: ${server.url}?WSDL)`);
      const stop = () => void server.close().then(() => process.exit(0));
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      await new Promise(() => {});
    });

  program
    .command("add-account")
    .description("add an account")
    .option("--db <file>", "SQLite database file", DEFAULT_DB)
    .requiredOption("--email <email>", "e-mail")
    .requiredOption("--password <password>", "password (stored as an scrypt hash)")
    .requiredOption("--user-id <n>", "integer user id", integer("--user-id"))
    .action((o: { db: string; email: string; password: string; userId: number }) => {
      const store = openStore(o.db);
      try {
        if (!store.addAccount(o.email, o.password, o.userId)) throw new Error(`an account with e-mail ${o.email} or user id ${o.userId} exists already`);
        console.log(`added ${o.email} (user id ${o.userId})`);
      } finally {
        store.close();
      }
    });

  program
    .command("import")
    .description("import messages for an account from a JSON array in the seed file's message format")
    .option("--db <file>", "SQLite database file", DEFAULT_DB)
    .requiredOption("--email <email>", "the account's e-mail")
    .requiredOption("--file <json>", "the messages")
    .action((o: { db: string; email: string; file: string }) => {
      const messages = JSON.parse(readFileSync(o.file, "utf8")) as SeedMessage[];
      if (!Array.isArray(messages)) throw new Error(`${o.file} must hold a JSON array of messages`);
      const store = openStore(o.db);
      try {
        console.log(`imported ${store.importMessages(o.email, messages)} of ${messages.length} messages for ${o.email}`);
      } finally {
        store.close();
      }
    });

  program
    .command("seed")
    .description("load a seed file (idempotent)")
    .option("--db <file>", "SQLite database file", DEFAULT_DB)
    .requiredOption("--file <json>", "the seed file")
    .action((o: { db: string; file: string }) => {
      const store = openStore(o.db);
      try {
        store.seed(readSeed(o.file));
        console.log(`seeded ${o.db}`);
      } finally {
        store.close();
      }
    });

  try {
    await program.parseAsync(argv as string[], { from: "user" });
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === "usage") console.error(e.message);
      return e.exitCode === 0 ? 0 : 2;
    }
    console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) process.exitCode = await main(process.argv.slice(2));

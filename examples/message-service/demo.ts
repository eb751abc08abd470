/**
 * `npm run demo`: generates the SDK from the fixture, starts the Message Retrieval Service on a fresh
 * seeded SQLite file, and calls it with the generated client over all four ports: list, date range,
 * delete, list. Prints a table; exits non-zero if anything fails.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ApiClient, SoapFault, type ApiPortName, type Messages } from "../../generated-samples/message-service/index.js";
import { startServer } from "./server.js";

const ALICE = { email: "alice@example.com", password: "alice-pass" };
const PORTS: readonly { port: ApiPortName; label: string; deletes: number }[] = [
  { port: "ApiSoap", label: "SOAP 1.1", deletes: 101 },
  { port: "ApiSoap12", label: "SOAP 1.2", deletes: 102 },
  { port: "ApiHttpGet", label: "HTTP GET", deletes: 103 },
  { port: "ApiHttpPost", label: "HTTP POST", deletes: 104 },
];

const ids = (list: readonly (Messages | null)[] | undefined) => (list ?? []).map((m) => (m ? m.Id : "nil")).join(", ") || "(none)";

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), "wsdl-tsgen-demo-"));
  try {
    const gen = spawnSync(process.execPath, ["bin/wsdl-tsgen.js", "generate", "fixtures/message-service/api.wsdl", "--out", path.join(work, "sdk")], { encoding: "utf8" });
    if (gen.status !== 0) throw new Error(`generation failed:\n${gen.stderr}`);
    console.log(`Generated the SDK from fixtures/message-service/api.wsdl: ${gen.stdout.trim()}`);

    const server = await startServer({ port: 0, host: "127.0.0.1", dbPath: path.join(work, "messages.db"), seedPath: "fixtures/message-service/asmx/seed.json" });
    console.log(`Message Retrieval Service on ${server.url}, seeded from fixtures/message-service/asmx/seed.json\n`);
    const rows: string[][] = [];
    try {
      for (const { port, label, deletes } of PORTS) {
        const client = new ApiClient({ endpoint: server.url, port });
        const before = await client.getMessages(ALICE);
        rows.push([label, "GetMessages", ids(before)]);
        const range = await client.getMessagesInDateRange({ ...ALICE, startDate: "2024-01-10T00:00:00", endDate: "2024-02-29T23:59:59" });
        rows.push(["", "GetMessagesInDateRange 2024-01-10 .. 2024-02-29T23:59:59", ids(range)]);
        await client.deleteMessage({ ...ALICE, MessageId: deletes });
        rows.push(["", `DeleteMessage ${deletes}`, "ok"]);
        rows.push(["", "GetMessages", ids(await client.getMessages(ALICE))]);
      }
      const wrong = await new ApiClient({ endpoint: server.url }).getMessages({ ...ALICE, password: "wrong" }).catch((e: unknown) => e);
      rows.push(["SOAP 1.1", "GetMessages, wrong password", wrong instanceof SoapFault ? `${wrong.code}: ${wrong.message}` : "unexpected success"]);
      const first = (await new ApiClient({ endpoint: server.url }).getMessages(ALICE))?.[0];
      rows.push(["SOAP 1.1", "DateArrived of the first message", first ? `${String(first.DateArrived)} (exact lexical value)` : "-"]);
    } finally {
      await server.close();
    }
    const widths = [0, 1, 2].map((i) => Math.max(...[["port", "call", "result"], ...rows].map((r) => r[i]!.length)));
    const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join(" | ");
    console.log(line(["port", "call", "result"]));
    console.log(widths.map((w) => "-".repeat(w)).join("-+-"));
    for (const r of rows) console.log(line(r));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(`demo failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});

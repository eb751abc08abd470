/**
 * `npm run demo`: runs the generator on the fixture WSDL (into a temporary folder, to show it
 * works), starts the Message Retrieval Service on a fresh seeded SQLite file, and calls it with the
 * checked-in generated client over all four ports: list, date range, delete, list. Each step is
 * checked against the expected ids; prints a table, and exits non-zero with a clear message if
 * anything fails.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import {
  ApiClient,
  SoapFault,
  type ApiPortName,
  type ArrayOfMessages,
} from "../../generated-samples/message-service/index.js";
import { startServer } from "./server.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const WSDL = path.join(ROOT, "fixtures/message-service/api.wsdl");
const SEED = path.join(ROOT, "fixtures/message-service/asmx/seed.json");
const ALICE = { email: "alice@example.com", password: "alice-pass" } as const;
const RANGE = { startDate: "2024-01-10T00:00:00", endDate: "2024-02-29T23:59:59" } as const;
/** Alice's seeded messages, and those of them inside RANGE. */
const ALICE_IDS = [101, 102, 103, 104, 105];
const IN_RANGE = [102, 103, 104];
const PORTS: readonly { port: ApiPortName; label: string; deletes: number }[] = [
  { port: "ApiSoap", label: "SOAP 1.1", deletes: 101 },
  { port: "ApiSoap12", label: "SOAP 1.2", deletes: 102 },
  { port: "ApiHttpGet", label: "HTTP GET", deletes: 103 },
  { port: "ApiHttpPost", label: "HTTP POST", deletes: 104 },
];

const idsOf = (list: ArrayOfMessages | undefined): number[] =>
  (list ?? []).map((m) => m?.Id ?? Number.NaN);
const show = (ids: readonly number[]): string => ids.join(", ") || "(none)";

/** Runs the generator's command line, as a user would; returns its summary line. */
function generate(out: string): string {
  const r = spawnSync(
    process.execPath,
    [path.join(ROOT, "bin/wsdl-tsgen.js"), "generate", WSDL, "--out", out],
    { cwd: ROOT, encoding: "utf8" },
  );
  if (r.error) throw new Error(`could not run the generator: ${r.error.message}`);
  if (r.status !== 0) {
    const output = (r.stderr || r.stdout).trim();
    const hint = /ERR_MODULE_NOT_FOUND|Cannot find module/.test(output)
      ? " (run `npm run build` first)"
      : "";
    throw new Error(`the generator failed with exit status ${r.status}${hint}:\n${output}`);
  }
  return r.stdout.trim().split("\n").pop() ?? "";
}

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), "wsdl-tsgen-demo-"));
  try {
    console.log(
      `wsdl-tsgen generate ${path.relative(ROOT, WSDL)}: ${generate(path.join(work, "sdk"))}`,
    );
    const server = await startServer({
      port: 0,
      host: "127.0.0.1",
      dbPath: path.join(work, "messages.db"),
      seedPath: SEED,
    });
    console.log(
      `Message Retrieval Service on ${server.url}, seeded from ${path.relative(ROOT, SEED)}\n`,
    );

    const rows: [string, string, string][] = [];
    /** Records a step; throws when its result is not the expected one. */
    const step = (port: string, call: string, got: string, expected: string): void => {
      rows.push([port, call, got]);
      if (got !== expected) throw new Error(`${port} ${call}: expected ${expected}, got ${got}`);
    };
    try {
      let remaining = ALICE_IDS;
      for (const { port, label, deletes } of PORTS) {
        const client = new ApiClient({ endpoint: server.url, port });
        step(label, "GetMessages", show(idsOf(await client.getMessages(ALICE))), show(remaining));
        step(
          "",
          `GetMessagesInDateRange ${RANGE.startDate} .. ${RANGE.endDate}`,
          show(idsOf(await client.getMessagesInDateRange({ ...ALICE, ...RANGE }))),
          show(IN_RANGE.filter((id) => remaining.includes(id))),
        );
        await client.deleteMessage({ ...ALICE, MessageId: deletes });
        step("", `DeleteMessage ${deletes}`, "ok", "ok");
        remaining = remaining.filter((id) => id !== deletes);
        step("", "GetMessages", show(idsOf(await client.getMessages(ALICE))), show(remaining));
      }
      const soap = new ApiClient({ endpoint: server.url, port: "ApiSoap" });
      const wrong = await soap.getMessages({ ...ALICE, password: "wrong" }).then(
        () => "no fault",
        (e: unknown) =>
          e instanceof SoapFault ? `fault ${e.code}: ${e.message}` : `error: ${String(e)}`,
      );
      step(
        "SOAP 1.1",
        "GetMessages with a wrong password",
        wrong,
        "fault soap:Client: Invalid email or password.",
      );
      const last = (await soap.getMessages(ALICE))?.at(-1);
      step(
        "SOAP 1.1",
        `DateArrived of message ${last?.Id ?? "-"}`,
        String(last?.DateArrived ?? "-"),
        "2024-03-10T12:00:00.1234567",
      );
    } finally {
      printTable(rows);
      await server.close();
    }
    console.log("\nAll calls gave the expected results.");
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function printTable(rows: readonly (readonly [string, string, string])[]): void {
  const head = ["port", "step", "ids / result"] as const;
  const widths = [0, 1, 2].map((i) => Math.max(...[head, ...rows].map((r) => r[i]!.length)));
  const line = (r: readonly string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join(" | ")
      .trimEnd();
  console.log(line(head));
  console.log(widths.map((w) => "-".repeat(w)).join("-+-"));
  for (const r of rows) console.log(line(r));
}

main().catch((e: unknown) => {
  console.error(`\ndemo failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});

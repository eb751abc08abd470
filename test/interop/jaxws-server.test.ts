/**
 * Our generated client against a server another toolkit wrote: the Message Retrieval Service on the
 * JAX-WS reference implementation (clients/JaxwsServer.java, on wsimport's stubs of our fixture WSDL),
 * over SOAP 1.1 and SOAP 1.2. JAX-WS writes its envelopes its own way (an `S:` prefix, single-quoted
 * XML declaration, `S:Client` fault codes, empty elements as start and end tag), and the client must
 * read the same values as from ASMX. Skipped, saying what to install, without the JAX-WS RI.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, SoapFault } from "../../generated-samples/message-service/index.js";
import { SEED } from "../support/captures.js";
import { asPlain, seedMessages } from "../support/expected.js";
import { compileJaxws, javaArgs, JAXWS } from "./peers.js";

const missing = JAXWS.missing();
if (missing) console.log(`interop: ${missing}; our client against a JAX-WS server is skipped.`);

const ALICE = { email: "alice@example.com", password: "alice-pass" };

/** The seed as JaxwsServer.java reads it: tab-separated, `\N` for null, backslash escapes. */
function seedTsv(): string {
  const f = (v: string | number | null) =>
    v === null
      ? "\\N"
      : String(v)
          .replace(/\\/g, "\\\\")
          .replace(/\t/g, "\\t")
          .replace(/\n/g, "\\n")
          .replace(/\r/g, "\\r");
  const lines: string[] = [];
  for (const a of SEED.accounts) {
    lines.push(["account", a.email, a.password, a.userId].map(f).join("\t"));
    for (const m of a.messages)
      lines.push(
        [
          "message",
          a.email,
          m.Id,
          m.DateArrived,
          m.Sender,
          m.MessageText,
          m.MessageUrl,
          m.Transcription,
        ]
          .map(f)
          .join("\t"),
      );
  }
  return `${lines.join("\n")}\n`;
}

describe.skipIf(missing !== undefined)("our generated client against a JAX-WS server", () => {
  let dir: string;
  let server: ChildProcess;
  let base: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "jaxws-server-"));
    await compileJaxws(dir, path.resolve("fixtures/message-service/api.wsdl"), "JaxwsServer.java");
    writeFileSync(path.join(dir, "seed.tsv"), seedTsv());
    server = spawn("java", [...javaArgs(dir), "JaxwsServer", path.join(dir, "seed.tsv")], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    server.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    const port = await new Promise<string>((resolve, reject) => {
      let out = "";
      server.stdout!.setEncoding("utf8").on("data", (c: string) => {
        out += c;
        const m = /listening (\d+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      server.on("exit", (code) =>
        reject(new Error(`JaxwsServer exited ${code}: ${stderr.slice(-2000)}`)),
      );
    });
    base = `http://127.0.0.1:${port}`;
  }, 180_000);
  afterAll(() => {
    server?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    "lists, lists a date range, deletes and meets its faults over SOAP 1.1 and SOAP 1.2, reading the seed's values",
    { timeout: 60_000 },
    async () => {
      let remaining = seedMessages(ALICE.email);
      for (const [port, at, id, code] of [
        ["ApiSoap", "/api.asmx", 101, /^\w+:Client$/],
        ["ApiSoap12", "/api12.asmx", 102, /^\w+:Sender$/],
      ] as const) {
        const client = new ApiClient({ endpoint: `${base}${at}`, port });
        expect(asPlain(await client.getMessages(ALICE)), port).toEqual(remaining);
        const range = await client.getMessagesInDateRange({
          ...ALICE,
          startDate: "2024-01-10T00:00:00",
          endDate: "2024-02-29T23:59:59",
        });
        expect(asPlain(range), port).toEqual(
          remaining.filter(
            (m) => m.DateArrived >= "2024-01-10" && m.DateArrived <= "2024-02-29T23:59:59.9999999",
          ),
        );
        await expect(client.deleteMessage({ ...ALICE, MessageId: id })).resolves.toBeUndefined();
        remaining = remaining.filter((m) => m.Id !== id);
        expect(asPlain(await client.getMessages(ALICE)), port).toEqual(remaining);
        const wrong = await client
          .getMessages({ ...ALICE, password: "wrong" })
          .catch((e: unknown) => e);
        expect(wrong, port).toBeInstanceOf(SoapFault);
        expect((wrong as SoapFault).message).toBe("Invalid email or password.");
        expect((wrong as SoapFault).code).toMatch(code);
        await expect(client.deleteMessage({ ...ALICE, MessageId: 201 })).rejects.toMatchObject({
          message: "No message with id 201.",
        });
      }
      // The exact lexical values came through another toolkit's writer: 7 fraction digits, and an
      // empty string.
      const all = await new ApiClient({ endpoint: `${base}/api.asmx` }).getMessages(ALICE);
      expect(String(all?.find((m) => m?.Id === 105)?.DateArrived)).toBe(
        "2024-03-10T12:00:00.1234567",
      );
      expect(all?.find((m) => m?.Id === 103)?.Transcription).toBe("");
    },
  );
});

/**
 * Independent judges of our MTOM: Python zeep downloads from our server and reads its MTOM answer;
 * a server of Python's standard library parses the package our client sends with the `email`
 * package, checking every xop:Include against the bytes sent, and answers with an MTOM package it
 * builds itself, which our client reads. Skipped, saying what to install, without them (`.ci/run`
 * installs python3-zeep).
 */
import { bytesOf } from "../support/binary.js";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocumentsClient } from "../../generated-samples/documents/index.js";
import { zeepPython } from "../interop/peers.js";
import { startDocuments, type DocumentsServer } from "./documents-server.js";

const PEERS = path.join(path.dirname(fileURLToPath(import.meta.url)), "peers");
const python = zeepPython();
if (!python)
  console.log("mtom judges: Python zeep is not installed (apt-get install python3-zeep); skipped.");

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

/** The Python server's pattern(n). */
function pattern(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 7 + (i >> 8)) & 0xff;
  return out;
}

describe.skipIf(python === undefined)("zeep reads our server's MTOM answer", () => {
  let server: DocumentsServer;
  beforeAll(async () => {
    server = await startDocuments({ mtom: "always" });
    server.store.set("d1", {
      id: "d1",
      name: "scan.tiff",
      mediaType: "image/tiff",
      content: pattern(300_000),
    });
  });
  afterAll(() => server.close());

  it.each(["DocumentsSoap", "DocumentsSoap12"])("over %s", async (port) => {
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        python!,
        [path.join(PEERS, "zeep_download.py"), `${server.url}?WSDL`, "d1", port],
        { timeout: 60_000, encoding: "utf8" },
        (err, stdout, stderr) =>
          err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
    const got = JSON.parse(out) as Record<string, unknown>;
    expect(got["contentType"]).toMatch(/^multipart\/related; type="application\/xop\+xml"/);
    expect(got).toMatchObject({
      name: "scan.tiff",
      size: 300_000,
      sha256: sha256(pattern(300_000)),
    });
  });
});

describe.skipIf(python === undefined)("a Python server of the standard library as our peer", () => {
  let child: ChildProcess;
  let url = "";
  const reports: unknown[] = [];
  beforeAll(async () => {
    child = spawn(python!, [path.join(PEERS, "mtom_server.py")], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const lines = createInterface({ input: child.stdout! });
    url = await new Promise<string>((resolve, reject) => {
      child.once("error", reject);
      lines.once("line", (line) => resolve(`http://127.0.0.1:${line.split(" ")[1]}/documents`));
    });
    lines.on("line", (line) => reports.push(JSON.parse(line)));
  });
  afterAll(() => void child.kill());

  it.each(["DocumentsSoap", "DocumentsSoap12"] as const)(
    "parses the package our client sends over %s, every xop:Include its bytes",
    async (port) => {
      reports.length = 0;
      const client = new DocumentsClient({ endpoint: url, port, mtom: { threshold: 10 } });
      const content = pattern(2 * 1024 * 1024 + 3);
      const thumbnail = pattern(4000).reverse();
      const info = await client.upload({
        Name: "n",
        MediaType: "m",
        Content: content,
        Thumbnail: thumbnail,
      });
      expect(info.Size).toBe(BigInt(content.byteLength + thumbnail.byteLength));
      expect(reports).toEqual([
        {
          multipart: true,
          includes: [
            { element: "Content", size: content.byteLength, sha256: sha256(content) },
            { element: "Thumbnail", size: thumbnail.byteLength, sha256: sha256(thumbnail) },
          ],
        },
      ]);
    },
  );

  it.each(["DocumentsSoap", "DocumentsSoap12"] as const)(
    "answers with an MTOM package that our client reads over %s",
    async (port) => {
      const client = new DocumentsClient({ endpoint: url, port });
      const doc = await client.download({ Id: "size:1500000" });
      expect((await bytesOf(doc.Content)).byteLength).toBe(1_500_000);
      expect(sha256(await bytesOf(doc.Content))).toBe(sha256(pattern(1_500_000)));
    },
  );
});

/**
 * gSOAP (Debian's gsoap and libgsoap-dev) as an MTOM peer: stubs made by soapcpp2 from a header
 * that imports xop.h (peers/gsoap/documents.h); a C client that uploads a document as an MTOM
 * attachment to our server and reads our MTOM answer to its download; a C server that checks what
 * our client uploads as MTOM and answers our client's download with an MTOM attachment. Skipped,
 * saying what to install, without them (`.ci/run` installs them).
 */
import { bytesOf } from "../support/binary.js";
import { execFile, execFileSync, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocumentsClient } from "../../generated-samples/documents/index.js";
import { startDocuments, type DocumentsServer } from "./documents-server.js";

const SOURCES = path.join(path.dirname(fileURLToPath(import.meta.url)), "peers/gsoap");
const IMPORTS = "/usr/share/gsoap/import";

function missing(): string | undefined {
  const has = (cmd: string) => {
    try {
      execFileSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  };
  if (!has("soapcpp2") || !existsSync(`${IMPORTS}/xop.h`))
    return "gSOAP is not installed (apt-get install gsoap libgsoap-dev)";
  if (!existsSync("/usr/include/stdsoap2.h") || !has("gcc"))
    return "gSOAP's headers or a C compiler are missing (apt-get install libgsoap-dev gcc)";
  return undefined;
}

const why = missing();
if (why) console.log(`mtom judges: ${why}; skipped.`);

describe.skipIf(why !== undefined)("gSOAP as an MTOM peer", () => {
  let server: DocumentsServer;
  let dir = "";
  beforeAll(async () => {
    // "always": gSOAP sends its Download request plain (it holds no binary), and the stub's
    // Content reads only an xop:Include.
    server = await startDocuments({ maxBodyBytes: 16 * 1024 * 1024, mtom: "always" });
    dir = mkdtempSync(path.join(tmpdir(), "gsoap-mtom-"));
    // The client's stubs and the server's, each made in a folder of its own.
    const build = (sub: string, side: "-C" | "-S", main: string, stubs: string) => {
      const cwd = path.join(dir, sub);
      mkdirSync(cwd);
      const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { cwd, stdio: "pipe" });
      run("soapcpp2", ["-c", side, "-L", "-x", `-I${IMPORTS}`, path.join(SOURCES, "documents.h")]);
      run("gcc", ["-o", sub, path.join(SOURCES, main), "soapC.c", stubs, "-I.", "-lgsoap"]);
    };
    build("client", "-C", "client.c", "soapClient.c");
    build("server", "-S", "server.c", "soapServer.c");
  });
  afterAll(async () => {
    await server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("uploads as an MTOM attachment, and reads our MTOM answer to its download", async () => {
    const size = 3 * 1024 * 1024 + 11;
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        path.join(dir, "client/client"),
        [server.url, String(size)],
        { timeout: 60_000, encoding: "utf8" },
        (err, stdout, stderr) =>
          err ? reject(new Error(`${err.message}\n${stdout}\n${stderr}`)) : resolve(stdout),
      ),
    );
    const got = JSON.parse(out) as Record<string, unknown>;
    expect(got).toEqual({
      id: "d1",
      uploaded: size,
      downloaded: size,
      same: true,
      name: "from-gsoap",
    });
    // What gSOAP sent arrived whole, as the pattern it wrote.
    const stored = server.store.get("d1")!.content;
    expect(stored.byteLength).toBe(size);
    expect(stored.every((b, i) => b === ((i * 7 + (i >> 8)) & 0xff))).toBe(true);
  });

  it("takes our client's MTOM upload whole, and answers our download with an attachment we read", async () => {
    const child = spawn(path.join(dir, "server/server"), [], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        child.once("error", reject);
        createInterface({ input: child.stdout! }).once("line", resolve);
      });
      const endpoint = `http://127.0.0.1:${line.split(" ")[1]}/documents`;
      const client = new DocumentsClient({ endpoint, mtom: true });
      const size = 2 * 1024 * 1024 + 5;
      const sent = new Uint8Array(size).map((_, i) => (i * 7 + (i >> 8)) & 0xff);
      const up = await client.upload({ Name: "ours", MediaType: "x/y", Content: sent });
      expect([up.Id, up.Size]).toEqual(["same", BigInt(size)]);
      const doc = await client.download({ Id: `size:${size}` });
      expect(doc.Info.Name).toBe("from-gsoap");
      expect((await bytesOf(doc.Content)).equals(Buffer.from(sent))).toBe(true);
    } finally {
      child.kill();
    }
  });
});

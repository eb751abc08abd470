/**
 * An independent judge of our SOAP with Attachments requests: Python's `email` package parses the
 * package our client sends, and the test checks each part's bytes and Content-ID (WS-I AP R2933).
 * Skipped, saying what to install, without python3.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ScansClient } from "../../generated-samples/swa/index.js";
import { binary } from "../support/binary.js";
import { listen } from "../support/loopback.js";

const JUDGE = path.join(path.dirname(fileURLToPath(import.meta.url)), "peers", "swa_judge.py");
const python = spawnSync("python3", ["--version"]).status === 0 ? "python3" : undefined;
if (!python) console.log("swa judge: python3 is not installed (apt-get install python3); skipped.");

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

interface Judged {
  type: string;
  rootType: string;
  start: string;
  defects: number;
  parts: { id: string; type: string; size: number; sha256: string; text?: string }[];
}

describe.skipIf(python === undefined)(
  "Python's email package reads our client's SwA request",
  () => {
    it("finds the envelope as the start part and the scan's bytes under <scan=…>", async () => {
      let got: { type: string; body: Buffer } | undefined;
      const peer = await listen((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          got = { type: String(req.headers["content-type"]), body: Buffer.concat(chunks) };
          res
            .writeHead(200, { "Content-Type": "text/xml; charset=utf-8" })
            .end(
              '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
                '<Stored xmlns="urn:wsdl-tsgen:scans"><Id>s1</Id><Size>3</Size></Stored>' +
                "</soap:Body></soap:Envelope>",
            );
        });
      });
      try {
        const scan = binary(70_000, 3);
        const client = new ScansClient({ endpoint: peer.url });
        expect(await client.storeScan({ Title: "Judged", Pages: 2, scan })).toEqual({
          Id: "s1",
          Size: 3n,
        });
        const out = execFileSync(python!, [JUDGE, got!.type], {
          input: got!.body,
          encoding: "utf8",
        });
        const judged = JSON.parse(out) as Judged;
        expect(judged).toMatchObject({
          type: "multipart/related",
          rootType: "text/xml",
          defects: 0,
        });
        expect(judged.parts).toHaveLength(2);
        const [root, part] = judged.parts;
        expect(judged.start).toBe(root!.id);
        expect(root!.type).toBe("text/xml");
        expect(root!.text).toContain("<Title>Judged</Title><Pages>2</Pages>");
        expect(part!.id).toMatch(/^<scan=[^<>@\s]+@[^<>\s]+>$/);
        expect(part!.type).toBe("image/png");
        expect(part!.size).toBe(scan.byteLength);
        expect(part!.sha256).toBe(sha256(scan));
      } finally {
        await peer.close();
      }
    });
  },
);

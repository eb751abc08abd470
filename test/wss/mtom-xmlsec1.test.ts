/**
 * Debian's xmlsec1 judges a signed MTOM request of ours (issue 42): once its `xop:Include`s are
 * expanded into their parts' base64 (by the small routine here, not by our runtime), the envelope
 * is an ordinary signed one, and xmlsec1 verifies it. The same with a part changed, or with the
 * Includes left as they are, fails: what is signed is the XOP infoset, parts included.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DocumentsClient } from "../../generated-samples/documents/index.js";
import { x509Security } from "../../runtime/src/wss/index.js";
import { binary } from "../support/binary.js";
import { tempDir } from "../support/tmp.js";
import { makeKeys, xmlsec1Missing, xmlsec1Verifies, type TestKeys } from "../support/wss-keys.js";

const missing = xmlsec1Missing();
if (missing) console.log(`wss: ${missing}; the xmlsec1 MTOM tests are skipped.`);

interface Sent {
  readonly contentType: string;
  readonly body: Buffer;
}

/** The parts of a multipart/related body by Content-ID, and the one `start` names. */
function unpack({ contentType, body }: Sent): { root: string; parts: Map<string, Buffer> } {
  const boundary = /boundary="([^"]+)"/.exec(contentType)![1]!;
  const start = /start="<([^>]+)>"/.exec(contentType)![1]!;
  const parts = new Map<string, Buffer>();
  const text = body.toString("latin1");
  for (const chunk of text.split(`--${boundary}`).slice(1, -1)) {
    const blank = chunk.indexOf("\r\n\r\n");
    const id = /Content-ID:\s*<([^>]+)>/i.exec(chunk.slice(0, blank))![1]!;
    // The part's content is between the blank line and the CRLF before the next delimiter.
    parts.set(id, Buffer.from(chunk.slice(blank + 4, -2), "latin1"));
  }
  return { root: parts.get(start)!.toString("utf8"), parts };
}

/** The root with each xop:Include replaced by its part's bytes in base64. */
const expand = (root: string, parts: ReadonlyMap<string, Buffer>): string =>
  root.replace(/<xop:Include\b[^>]*\bhref="cid:([^"]+)"[^>]*\/>/g, (_, id: string) =>
    parts.get(decodeURIComponent(id))!.toString("base64"),
  );

describe.skipIf(missing !== undefined)("a signed MTOM request, judged by xmlsec1", () => {
  let keys: TestKeys;
  beforeAll(() => {
    keys = makeKeys("mtom-signer");
  });

  /** What our client sends for an Upload of `content` over `port`, captured before the wire. */
  async function sent(port: "DocumentsSoap" | "DocumentsSoap12", content: Uint8Array | Blob) {
    let captured: Sent | undefined;
    const client = new DocumentsClient({
      endpoint: "http://127.0.0.1:1/documents",
      port,
      mtom: true,
      security: x509Security({ sign: { key: keys.key, cert: keys.cert } }),
      fetch: async (_url, init) => {
        const headers = init!.headers as Record<string, string>;
        // A package with a Blob part is sent as a stream of its parts.
        const body = init!.body as Buffer | ReadableStream<Uint8Array>;
        captured = {
          contentType: headers["Content-Type"]!,
          body:
            body instanceof ReadableStream
              ? Buffer.from(await new Response(body).arrayBuffer())
              : Buffer.from(body),
        };
        return new Response("", { status: 503 });
      },
    });
    await client.upload({ Name: "n", MediaType: "m", Content: content }).catch(() => undefined);
    return captured!;
  }

  const judge = (xml: string) => {
    const file = path.join(tempDir("wss-mtom-"), "request.xml");
    writeFileSync(file, xml);
    return xmlsec1Verifies(file, keys.certPath, ["Body", "Timestamp"]);
  };

  it.each(["DocumentsSoap", "DocumentsSoap12"] as const)(
    "%s: verified once its Includes are expanded",
    async (port) => {
      const content = binary(6000, 21);
      const { root, parts } = unpack(await sent(port, content));
      expect(root).toMatch(/<Content><xop:Include [^>]*\/><\/Content>/);
      const expanded = expand(root, parts);
      expect(expanded).toContain(`<Content>${Buffer.from(content).toString("base64")}</Content>`);
      const verdict = judge(expanded);
      expect(verdict.output).toContain("SignedInfo References (ok/all): 2/2");
      expect(verdict.ok, verdict.output).toBe(true);
    },
  );

  it("a Blob part, hashed as it is read in chunks: verified once its Include is expanded", async () => {
    const content = binary(200_003, 23);
    const pieces = [content.subarray(0, 1), content.subarray(1, 65_537), content.subarray(65_537)];
    const { root, parts } = unpack(await sent("DocumentsSoap", new Blob(pieces)));
    const verdict = judge(expand(root, parts));
    expect(verdict.output).toContain("SignedInfo References (ok/all): 2/2");
    expect(verdict.ok, verdict.output).toBe(true);
  });

  it("fails with a part changed, and with the Includes left unexpanded", async () => {
    const { root, parts } = unpack(await sent("DocumentsSoap", binary(6000, 22)));
    // The one attachment's first byte changed: the Body's digest no longer matches.
    const changed = new Map(parts);
    const [id, bytes] = [...parts].find(([, b]) => b.length === 6000)!;
    changed.set(id, Buffer.concat([Buffer.from([bytes[0]! ^ 1]), bytes.subarray(1)]));
    const swapped = judge(expand(root, changed));
    expect(swapped.ok).toBe(false);
    expect(swapped.output).toContain("data and digest do not match");
    const literal = judge(root);
    expect(literal.ok).toBe(false);
    expect(literal.output).toContain("data and digest do not match");
  });
});

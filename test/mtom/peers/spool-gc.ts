/**
 * Run by spool-gc.test.ts as `node --expose-gc --import tsx`: our client downloads a part above the
 * spool threshold from our server on loopback (the files made under SPOOL_TMPDIR), then drops what it holds step by step, running the
 * garbage collector, and prints (one JSON line per step) the spooled files left under TMPDIR.
 */
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import {
  createDocumentsHandler,
  DocumentsClient,
} from "../../../generated-samples/documents/index.js";
import { listen } from "../../support/loopback.js";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");
// Set here, not for the process: tsx keeps its cache under the TMPDIR it starts with.
const tmp = process.env["SPOOL_TMPDIR"]!;
process.env["TMPDIR"] = tmp;
const left = () => readdirSync(tmp, { recursive: true }).map(String);
const report = (step: string, extra: object = {}) =>
  console.log(JSON.stringify({ step, left: left(), ...extra }));

/** Collects until the spool's directory is gone, or 50 rounds have passed (then it stays). */
async function collect(): Promise<void> {
  for (let i = 0; i < 50 && left().length > 0; i++) {
    gc!();
    await new Promise((r) => setTimeout(r, 10));
  }
}

const big = Buffer.alloc(2 * 1024 * 1024 + 5, 7);
const server = await listen(
  createDocumentsHandler(
    {
      upload: () => Promise.reject(new Error("not used")),
      download: () => ({
        Info: {
          Id: "d",
          Name: "n",
          MediaType: "m",
          Size: big.length,
          Created: "2026-11-29T00:00:00Z",
        },
        Content: big,
      }),
      list: () => [],
    },
    { logger: () => {} },
  ),
);
const client = new DocumentsClient({ endpoint: `${server.url}/documents`, mtom: true });

// A result dropped whole.
let result: Awaited<ReturnType<typeof client.download>> | undefined = await client.download({
  Id: "d",
});
report("held", { blob: result.Content instanceof Blob });
result = undefined;
await collect();
report("result dropped");

// A slice and a stream not yet read outlive the Blob they came from, each keeping the file.
/** A slice and a stream of a downloaded Blob, and a weak reference to the Blob, not kept. */
async function sliceAndStream() {
  const blob = (await client.download({ Id: "d" })).Content as Blob;
  return { slice: blob.slice(1, 4), stream: blob.stream(), keep: new WeakRef(blob) };
}
let { slice, stream, keep }: Partial<Awaited<ReturnType<typeof sliceAndStream>>> =
  await sliceAndStream();
await collect();
report("blob dropped", { blobCollected: keep!.deref() === undefined });
let read = 0;
const hash = createHash("sha256");
for await (const c of stream) ((read += c.length), hash.update(c));
stream = undefined;
const same = hash.digest("hex") === createHash("sha256").update(big).digest("hex");
report("stream read", { read, same, slice: [...Buffer.from(await slice.arrayBuffer())] });
slice = undefined;
await collect();
report("slice dropped");
await server.close();

/**
 * The multipart reader that reads a body as it arrives (runtime/src/mime/multipart-stream.ts): the
 * same parts as the whole-body reader however the body is cut into chunks, large parts spooled to
 * private temporary files given as Blobs, and the same refusals.
 */
import { createHash } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MultipartError, parseMultipart } from "../../runtime/src/mime/multipart.js";
import { readMultipartStream } from "../../runtime/src/mime/multipart-stream.js";
import { releaseAttachments, Spool } from "../../runtime/src/mime/spool.js";
import { binary, bytesOf } from "../support/binary.js";
import { spoolDir } from "../support/spool-dir.js";

const B = "b0undary";
const part = (id: string, headers = "") =>
  `Content-Type: application/octet-stream\r\nContent-ID: <${id}>${headers}`;

/** A multipart body: each part its headers and content, between `B` delimiters. */
function body(parts: readonly [string, Uint8Array | string][], close = true): Buffer {
  const chunks: Buffer[] = [Buffer.from("a preamble\r\n")];
  parts.forEach(([headers, content], i) => {
    chunks.push(Buffer.from(`${i === 0 ? "" : "\r\n"}--${B}\r\n${headers}\r\n\r\n`, "latin1"));
    chunks.push(Buffer.from(content));
  });
  if (close) chunks.push(Buffer.from(`\r\n--${B}--\r\nan epilogue`));
  return Buffer.concat(chunks);
}

async function* chunked(b: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < b.length; i += size) yield b.subarray(i, i + size);
}

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const LIMITS = { maxPartBytes: 1 << 30, maxParts: 100, maxRootBytes: 1 << 20, spoolBytes: 1000 };

const tmp = spoolDir(true);
/** The files left under the test's temporary directory. */
const leftovers = () => tmp.entries();

describe("readMultipartStream", () => {
  const parts: [string, Uint8Array | string][] = [
    [part("root"), "<e/>"],
    [part("small"), binary(999, 1)],
    [part("large"), binary(5000, 2)],
    // Pieces of a delimiter that are no delimiter, to be cut across chunks.
    [part("dashes"), `--${B.slice(0, 5)}\r\n--${B.slice(0, 7)}\r\n-\r`.repeat(3)],
  ];
  const whole = body(parts);

  it.each([1, 2, 7, 13, 64, 4096, whole.length])(
    "reads the parts the whole-body reader reads, in chunks of %i bytes",
    async (size) => {
      const spool = new Spool();
      const read = await readMultipartStream(chunked(whole, size), B, "<root>", LIMITS, spool);
      const expected = parseMultipart(whole, B, { maxPartBytes: 1 << 30, maxParts: 100 });
      expect(read.map((p) => p.id)).toEqual(expected.map((p) => p.id));
      for (const [i, p] of read.entries())
        expect(sha256(await bytesOf(p.content))).toBe(sha256(expected[i]!.content as Uint8Array));
      expect(read[1]!.content).toBeInstanceOf(Uint8Array);
      expect(read[2]!.content).toBeInstanceOf(Blob);
      await spool.release();
    },
  );

  it("keeps the root part in memory whatever its size, and spools parts from the threshold on", async () => {
    const spool = new Spool();
    const b = body([
      [part("root"), "x".repeat(5000)],
      [part("at"), binary(1000, 3)],
      [part("under"), binary(999, 4)],
    ]);
    const read = await readMultipartStream(chunked(b, 100), B, undefined, LIMITS, spool);
    expect(read.map((p) => p.content instanceof Blob)).toEqual([false, true, false]);
    expect((read[1]!.content as Blob).size).toBe(1000);
    const [dir] = readdirSync(tmp.path);
    expect(statSync(join(tmp.path, dir!)).mode & 0o777).toBe(0o700);
    const files = readdirSync(join(tmp.path, dir!));
    expect(files).toHaveLength(1);
    expect(statSync(join(tmp.path, dir!, files[0]!)).mode & 0o777).toBe(0o600);
    // released through the Blobs that hold it: the files are gone, the Blob no longer reads.
    expect(await releaseAttachments({ a: [read[1]!.content] })).toBe(1);
    expect(leftovers()).toEqual([]);
    await expect((read[1]!.content as Blob).arrayBuffer()).rejects.toThrow();
  });

  it.each([
    ["no close delimiter", body(parts, false), /ends inside a part/, "malformed"],
    ["no delimiter at all", Buffer.from("just text"), /no part delimited/, "malformed"],
    [
      "the boundary inside data",
      Buffer.from(`--${B}\r\n${part("a")}\r\n\r\nxx\r\n--${B}yy\r\n--${B}--`),
      /inside a part's data/,
      "boundary-in-data",
    ],
    [
      "a header line without a name",
      Buffer.from(`--${B}\r\nnonsense\r\n\r\nxx\r\n--${B}--`),
      /has no name/,
      "malformed",
    ],
    [
      "an unknown transfer encoding",
      Buffer.from(
        `--${B}\r\n${part("a", "\r\nContent-Transfer-Encoding: gzip")}\r\n\r\nx\r\n--${B}--`,
      ),
      /not supported/,
      "unsupported",
    ],
  ] as const)("refuses %s, and leaves no file behind", async (_, b, says, reason) => {
    const spool = new Spool();
    const read = readMultipartStream(chunked(b, 333), B, undefined, LIMITS, spool);
    await expect(read).rejects.toThrow(says);
    await expect(read).rejects.toMatchObject({ reason });
    await spool.release();
    expect(leftovers()).toEqual([]);
  });

  it("refuses a part over its limit mid-body, and too many parts, as too-large", async () => {
    const big = body([
      [part("root"), "<e/>"],
      [part("a"), binary(10_000, 5)],
    ]);
    const spool = new Spool();
    const limited = { ...LIMITS, maxPartBytes: 4000 };
    const read = readMultipartStream(chunked(big, 1000), B, undefined, limited, spool);
    await expect(read).rejects.toBeInstanceOf(MultipartError);
    await expect(read).rejects.toMatchObject({ reason: "too-large" });
    const rootLimited = { ...LIMITS, maxRootBytes: 3 };
    const root = readMultipartStream(chunked(big, 1000), B, undefined, rootLimited, spool);
    await expect(root).rejects.toThrow(/root part is larger than 3 bytes/);
    const few = readMultipartStream(
      chunked(big, 1000),
      B,
      undefined,
      { ...LIMITS, maxParts: 1 },
      spool,
    );
    await expect(few).rejects.toThrow(/more than 1 parts/);
    await spool.release();
    expect(leftovers()).toEqual([]);
  });

  it.each([1000, 1 << 20])(
    "refuses a part's header block over 16 KiB, in chunks of %i bytes",
    async (size) => {
      const b = body([
        [part("root"), "<e/>"],
        [part("a", `\r\nX-Padding: ${"p".repeat(40_000)}`), "data"],
      ]);
      const spool = new Spool();
      const read = readMultipartStream(chunked(b, size), B, undefined, LIMITS, spool);
      await expect(read).rejects.toThrow(/part's headers are longer than 16384 bytes/);
      await spool.release();
    },
  );

  it("decodes a base64 part in memory", async () => {
    const bytes = binary(3000, 6);
    const b = body([
      [part("root"), "<e/>"],
      [part("a", "\r\nContent-Transfer-Encoding: base64"), Buffer.from(bytes).toString("base64")],
    ]);
    const spool = new Spool();
    const read = await readMultipartStream(chunked(b, 100), B, undefined, LIMITS, spool);
    expect(Buffer.from(read[1]!.content as Uint8Array).equals(Buffer.from(bytes))).toBe(true);
    expect(spool.used).toBe(false);
  });
});

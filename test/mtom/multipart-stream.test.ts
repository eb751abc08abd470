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
});

describe("a base64 part", () => {
  const b64 = "\r\nContent-Transfer-Encoding: base64";
  /** `bytes` in base64, in lines of 76 as RFC 2045 writes them. */
  const lines = (bytes: Uint8Array) =>
    Buffer.from(bytes).toString("base64").replace(/.{76}/g, "$&\r\n");
  const withPart = (text: string) =>
    body([
      [part("root"), "<e/>"],
      [part("a", b64), text],
    ]);

  it("is decoded as it arrives, the same however the body is cut", async () => {
    const bytes = binary(200, 6);
    const whole = withPart(lines(bytes));
    expect(Buffer.from(parseMultipart(whole, B, LIMITS)[1]!.content as Uint8Array)).toEqual(
      Buffer.from(bytes),
    );
    // Every split point of the body (two chunks), groups and line breaks cut everywhere.
    for (let at = 0; at <= whole.length; at++) {
      const spool = new Spool();
      async function* two() {
        yield whole.subarray(0, at);
        yield whole.subarray(at);
      }
      const read = await readMultipartStream(two(), B, undefined, LIMITS, spool);
      expect(Buffer.from(read[1]!.content as Uint8Array).equals(Buffer.from(bytes))).toBe(true);
      expect(spool.used).toBe(false);
    }
  });

  it("above the spool threshold is a Blob of its decoded bytes, spooled as it arrives", async () => {
    const bytes = binary(50_003, 7);
    const spool = new Spool();
    const read = await readMultipartStream(
      chunked(withPart(lines(bytes)), 333),
      B,
      undefined,
      LIMITS,
      spool,
    );
    expect(read[1]!.content).toBeInstanceOf(Blob);
    expect((read[1]!.content as Blob).size).toBe(50_003);
    expect(sha256(await bytesOf(read[1]!.content))).toBe(sha256(bytes));
    await spool.release();
    expect(leftovers()).toEqual([]);
  });

  it("is held to maxAttachmentBytes by its decoded size", async () => {
    const text = lines(binary(4000, 8));
    const at = { ...LIMITS, maxPartBytes: 4000 };
    const spool = new Spool();
    const fits = await readMultipartStream(chunked(withPart(text), 100), B, undefined, at, spool);
    expect((fits[1]!.content as Blob).size).toBe(4000);
    const over = { ...LIMITS, maxPartBytes: 3999 };
    const read = readMultipartStream(chunked(withPart(text), 100), B, undefined, over, spool);
    await expect(read).rejects.toMatchObject({ reason: "too-large" });
    expect(() => parseMultipart(withPart(text), B, over)).toThrow(/larger than 3999 bytes/);
    await spool.release();
  });

  it.each([
    ["a byte outside the alphabet", "QUJD!QUJD", /byte 0x21 is not base64/],
    ["text ending inside a group", "QUJDRA", /ends inside a 4-character group/],
    ["padding where data belongs", "Q===", /'=' stands where data belongs/],
    ["data after '='", "QQ=A", /data follows '='/],
    ["text after the padding", "QQ==\r\nQUJD", /text follows its padding/],
  ])("refuses %s, both readers alike, whatever the chunks", async (_, text, says) => {
    const b = withPart(text);
    expect(() => parseMultipart(b, B, LIMITS)).toThrow(says);
    for (const size of [1, 3, 1000]) {
      const spool = new Spool();
      const read = readMultipartStream(chunked(b, size), B, undefined, LIMITS, spool);
      await expect(read).rejects.toThrow(says);
      await expect(read).rejects.toMatchObject({ reason: "malformed" });
      await spool.release();
    }
  });
});

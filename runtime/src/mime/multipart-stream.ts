/**
 * multipart/related bodies read as they arrive (RFC 2046 §5.1): delimiters found across chunks,
 * the root part (the envelope) held in memory, an attachment part (base64 decoded as it comes)
 * held in memory until it reaches the spool threshold, then written to a temporary file (spool.ts)
 * and given as a Blob. The rules are parseMultipart's, from part-rules.ts, so that data is never
 * read as structure.
 */
import { bareContentId, parseMediaType } from "./headers.js";
import type { BodyPart } from "./multipart.js";
import * as rules from "./part-rules.js";
import { MultipartError, type MultipartLimits } from "./part-rules.js";
import type { Spool } from "./spool.js";
import { Base64Decoder, transferEncoding } from "./transfer-encoding.js";
import type { FileHandle } from "node:fs/promises";

export interface StreamLimits extends MultipartLimits {
  /** The largest root part (the envelope), in bytes. */
  readonly maxRootBytes: number;
  /** Attachment parts of at least this many bytes go to a temporary file. */
  readonly spoolBytes: number;
}

const CRLF = Buffer.from("\r\n");

/** Where the scanner stands. */
type State = "preamble" | "delimiter" | "headers" | "content" | "epilogue";

/**
 * Reads the parts of the multipart body `chunks` whose boundary is `boundary`; `start` is the root
 * part's Content-ID (the first part's when undefined). Spooled files are `spool`'s, which the
 * caller releases, also when this throws.
 */
export async function readMultipartStream(
  chunks: AsyncIterable<Uint8Array>,
  boundary: string,
  start: string | undefined,
  limits: StreamLimits,
  spool: Spool,
): Promise<BodyPart[]> {
  const scan = new Scanner(rules.delimiterOf(boundary), start, limits, spool);
  // The body is read as if it began with CRLF: its first delimiter may then open it.
  try {
    await scan.feed(CRLF);
    for await (const chunk of chunks)
      await scan.feed(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    return scan.end();
  } catch (e) {
    await scan.abandon();
    throw e;
  }
}

class Scanner {
  private state: State = "preamble";
  private carry: Buffer = Buffer.alloc(0);
  private readonly parts: BodyPart[] = [];
  private part: PartSink | undefined;

  constructor(
    private readonly delimiter: Buffer,
    private readonly start: string | undefined,
    private readonly limits: StreamLimits,
    private readonly spool: Spool,
  ) {}

  async feed(chunk: Buffer): Promise<void> {
    let buf = this.carry.length === 0 ? chunk : Buffer.concat([this.carry, chunk]);
    this.carry = Buffer.alloc(0);
    while (buf.length > 0) {
      const rest = await this.step(buf);
      if (rest === undefined) return;
      buf = rest;
    }
  }

  /** Consumes what it can of `buf`: the rest to go on with, or undefined when it needs more. */
  private async step(buf: Buffer): Promise<Buffer | undefined> {
    switch (this.state) {
      case "epilogue":
        return undefined;
      case "preamble":
      case "content":
        return this.scanContent(buf);
      case "delimiter":
        return this.delimiterLine(buf);
      case "headers":
        return this.headers(buf);
    }
  }

  /** Content (or preamble) up to the next delimiter; what may begin one is kept for later. */
  private async scanContent(buf: Buffer): Promise<Buffer | undefined> {
    const at = buf.indexOf(this.delimiter);
    if (at === -1) {
      const keep = Math.min(buf.length, this.delimiter.length - 1);
      await this.part?.add(buf.subarray(0, buf.length - keep));
      this.carry = Buffer.from(buf.subarray(buf.length - keep));
      return undefined;
    }
    if (this.part) {
      await this.part.add(buf.subarray(0, at));
      this.parts.push(await this.part.done());
      this.part = undefined;
    }
    this.state = "delimiter";
    return buf.subarray(at + this.delimiter.length);
  }

  /** After a delimiter: `--` closes the body; else only transport padding, then CRLF. */
  private delimiterLine(buf: Buffer): Buffer | undefined {
    if (buf.length < 2) return void (this.carry = Buffer.from(buf));
    if (buf[0] === 0x2d && buf[1] === 0x2d) return void (this.state = "epilogue");
    const at = rules.afterPadding(buf, 0);
    if (at === -1) {
      if (buf.length > 1024)
        throw new MultipartError("a delimiter line is longer than 1024 bytes", "malformed");
      return void (this.carry = Buffer.from(buf));
    }
    rules.checkPartCount(this.parts.length, this.limits);
    this.state = "headers";
    return buf.subarray(at);
  }

  /** A part's header block, up to its blank line (which alone opens a part with no headers). */
  private headers(buf: Buffer): Buffer | undefined {
    let split: number;
    let after: number;
    if (buf.length >= 2 && buf[0] === 0x0d && buf[1] === 0x0a) ((split = 0), (after = 2));
    else {
      split = buf.indexOf("\r\n\r\n");
      after = split + 4;
    }
    const whole = split !== -1 && buf.length >= 2;
    // Checked whether the block came in one chunk (its length) or is still arriving (all so far).
    rules.checkHeaderBytes(whole ? split : buf.length);
    if (!whole) return void (this.carry = Buffer.from(buf));
    const headers = rules.partHeaders(buf.toString("latin1", 0, split));
    const id = bareContentId(headers["content-id"] ?? "");
    const root =
      this.start === undefined ? this.parts.length === 0 : id === bareContentId(this.start);
    this.part = new PartSink(headers, id, root, this.limits, this.spool);
    this.state = "content";
    return buf.subarray(after);
  }

  /** Closes the file of the part being read, if any (its spool removes it). */
  async abandon(): Promise<void> {
    await this.part?.abandon();
  }

  end(): BodyPart[] {
    if (this.state !== "epilogue")
      throw new MultipartError(
        this.state === "preamble"
          ? "the body holds no part delimited by its boundary"
          : "the body ends inside a part, before its close delimiter",
        "malformed",
      );
    if (this.parts.length === 0) throw new MultipartError("the body holds no part", "missing-part");
    return this.parts;
  }
}

/**
 * One part's content as it arrives, base64 decoded as it comes: in memory, or, from the spool
 * threshold on, in a file (an attachment; the root part stays in memory).
 */
class PartSink {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private file: { path: string; handle: FileHandle } | undefined;
  private readonly base64: Base64Decoder | undefined;
  private readonly max: number;

  constructor(
    private readonly headers: Record<string, string>,
    private readonly id: string,
    private readonly root: boolean,
    private readonly limits: StreamLimits,
    private readonly spool: Spool,
  ) {
    if (transferEncoding(headers) === "base64") this.base64 = new Base64Decoder();
    this.max = root ? limits.maxRootBytes : limits.maxPartBytes;
  }

  async add(data: Buffer): Promise<void> {
    // Decoded bytes are new; a view of the chunk that came is copied out of it, not held.
    if (this.base64) await this.keep(this.base64.push(data), true);
    else await this.keep(data, false);
  }

  private async keep(data: Buffer, fresh: boolean): Promise<void> {
    if (data.length === 0) return;
    this.size += data.length;
    rules.checkPartBytes(this.size, this.max, this.root ? "root part" : "part");
    if (this.file) return void (await this.file.handle.write(data));
    this.chunks.push(fresh || this.root ? data : Buffer.from(data));
    if (!this.root && this.size >= this.limits.spoolBytes) {
      this.file = await this.spool.file();
      await this.file.handle.writev(this.chunks.splice(0));
    }
  }

  async done(): Promise<BodyPart> {
    this.base64?.end();
    const contentType = parseMediaType(this.headers["content-type"] ?? "text/plain");
    const base = { headers: this.headers, id: this.id, contentType };
    if (this.file) {
      await this.file.handle.close();
      const type = this.headers["content-type"] ?? "";
      return { ...base, content: await this.spool.blob(this.file.path, type) };
    }
    const content =
      this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
    return { ...base, content };
  }

  /** Closes an open file on failure (the spool removes it). */
  async abandon(): Promise<void> {
    await this.file?.handle.close().catch(() => undefined);
  }
}

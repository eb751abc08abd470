/**
 * multipart/related bodies read as they arrive (RFC 2046 §5.1): delimiters found across chunks,
 * the root part (the envelope) held in memory, an attachment part held in memory until it reaches
 * the spool threshold, then written to a temporary file (spool.ts) and given as a Blob. The same
 * rules as parseMultipart, so that data is never read as structure.
 */
import { bareContentId, parseMediaType } from "./headers.js";
import { MultipartError, partHeaders, type BodyPart, type MultipartLimits } from "./multipart.js";
import type { Spool } from "./spool.js";
import type { FileHandle } from "node:fs/promises";

export interface StreamLimits extends MultipartLimits {
  /** The largest root part (the envelope), in bytes. */
  readonly maxRootBytes: number;
  /** Attachment parts of at least this many bytes go to a temporary file. */
  readonly spoolBytes: number;
}

const MAX_HEADER_BYTES = 16 * 1024;
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
  if (boundary === "" || boundary.length > 70 || /[\r\n]/.test(boundary))
    throw new MultipartError(`the boundary ${JSON.stringify(boundary)} is not valid`, "malformed");
  const scan = new Scanner(Buffer.from("\r\n--" + boundary, "latin1"), start, limits, spool);
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
    let i = 0;
    while (buf[i] === 0x20 || buf[i] === 0x09) i++;
    if (i + 1 >= buf.length) {
      if (buf.length > 1024)
        throw new MultipartError("a delimiter line is longer than 1024 bytes", "malformed");
      return void (this.carry = Buffer.from(buf));
    }
    if (buf[i] !== 0x0d || buf[i + 1] !== 0x0a)
      throw new MultipartError(
        "the boundary appears inside a part's data (a delimiter followed by other than CRLF)",
        "boundary-in-data",
      );
    if (this.parts.length >= this.limits.maxParts)
      throw new MultipartError(
        `the body holds more than ${this.limits.maxParts} parts`,
        "too-large",
      );
    this.state = "headers";
    return buf.subarray(i + 2);
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
    if ((whole ? split : buf.length) > MAX_HEADER_BYTES)
      throw new MultipartError(
        `a part's headers are longer than ${MAX_HEADER_BYTES} bytes`,
        "malformed",
      );
    if (!whole) return void (this.carry = Buffer.from(buf));
    const headers = partHeaders(buf.toString("latin1", 0, split));
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

/** One part's content as it arrives: in memory, or, from the spool threshold on, in a file. */
class PartSink {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private file: { path: string; handle: FileHandle } | undefined;
  private readonly encoding: string;

  constructor(
    private readonly headers: Record<string, string>,
    private readonly id: string,
    private readonly root: boolean,
    private readonly limits: StreamLimits,
    private readonly spool: Spool,
  ) {
    this.encoding = (headers["content-transfer-encoding"] ?? "binary").trim().toLowerCase();
    if (!["binary", "8bit", "7bit", "base64"].includes(this.encoding))
      throw new MultipartError(
        `the Content-Transfer-Encoding '${this.encoding}' is not supported; expected binary, 8bit, 7bit or base64`,
        "unsupported",
      );
  }

  async add(data: Buffer): Promise<void> {
    if (data.length === 0) return;
    this.size += data.length;
    const max = this.root ? this.limits.maxRootBytes : this.limits.maxPartBytes;
    // A base64 part is checked once decoded (3/4 of its text).
    if (this.size > (this.encoding === "base64" ? Math.ceil(max / 3) * 4 + 4096 : max))
      throw new MultipartError(
        `a ${this.root ? "root part" : "part"} is larger than ${max} bytes`,
        "too-large",
      );
    if (this.file) return void (await this.file.handle.write(data));
    // Kept parts are copied out of the chunk they came in, which is not held for them.
    this.chunks.push(this.root ? data : Buffer.from(data));
    const spooled = !this.root && this.encoding !== "base64";
    if (spooled && this.size >= this.limits.spoolBytes) {
      this.file = await this.spool.file();
      await this.file.handle.writev(this.chunks.splice(0));
    }
  }

  async done(): Promise<BodyPart> {
    const contentType = parseMediaType(this.headers["content-type"] ?? "text/plain");
    const base = { headers: this.headers, id: this.id, contentType };
    if (this.file) {
      await this.file.handle.close();
      const type = this.headers["content-type"] ?? "";
      return { ...base, content: await this.spool.blob(this.file.path, type) };
    }
    let content: Uint8Array =
      this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
    if (this.encoding === "base64")
      content = new Uint8Array(Buffer.from(Buffer.from(content).toString("latin1"), "base64"));
    const max = this.root ? this.limits.maxRootBytes : this.limits.maxPartBytes;
    if (content.byteLength > max)
      throw new MultipartError(`a part is larger than ${max} bytes`, "too-large");
    return { ...base, content };
  }

  /** Closes an open file on failure (the spool removes it). */
  async abandon(): Promise<void> {
    await this.file?.handle.close().catch(() => undefined);
  }
}

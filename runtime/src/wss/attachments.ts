/**
 * Signatures over a multipart/related message's attachment parts, as WCF and WSS4J make them:
 *
 * - MTOM: a signed element is digested as its XOP infoset, each `xop:Include` replaced by its
 *   part's bytes in base64 (the element's content had the message not been optimized), so a
 *   signature covers the parts its signed elements include.
 * - SOAP with Attachments: a part is referenced by `cid:` URI with one transform of the OASIS WSS
 *   SwA Profile 1.1, Attachment-Content (the part's canonical content) or Attachment-Complete (its
 *   canonical MIME headers, then its content).
 *
 * A verifier refuses any part that neither way covers: a part the signature does not sign must
 * not reach an implementation told who signed the request.
 */
import { createHash } from "node:crypto";
import { SecurityRefusal, type MessagePart, type MessageParts } from "../soap/message-security.js";
import { cidOf, cidUrl, parseMediaType, quoted } from "../mime/headers.js";
import { XOP_NS } from "../xml/namespaces.js";
import { escapeAttr } from "../xml/escape.js";
import { DIGESTS, type DigestName } from "./algorithms.js";
import { excC14n } from "./c14n.js";
import { sameDigest } from "./digest.js";
import type { ReferenceRead } from "./signed-info.js";
import { allElements, attrValue, readTree, type SigElement } from "./tree.js";

const SWA = "http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1#";
const SWA_CONTENT = `${SWA}Attachment-Content-Signature-Transform`;
const SWA_COMPLETE = `${SWA}Attachment-Complete-Signature-Transform`;

const refuse = (message: string, reason: string): never => {
  throw new SecurityRefusal(message, reason);
};

/** The `xop:Include` elements in `el` (itself included), by the Content-ID each names. */
function* includes(el: SigElement): Generator<[SigElement, string | undefined]> {
  for (const e of allElements(el))
    if (e.ns === XOP_NS && e.local === "Include") yield [e, cidOf(attrValue(e, "", "href") ?? "")];
}

const base64 = (b: Uint8Array): string =>
  Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("base64");

/**
 * A part's bytes for a synchronous digest: a Blob or a stream is hashed as it is read instead
 * (part-digests.ts), by the async paths that the signer and verifier take for such parts.
 */
function bytesOf(part: MessagePart): Uint8Array {
  if (part.content instanceof Uint8Array) return part.content;
  throw new Error(
    `the attachment part <${part.id.slice(0, 100)}> is a Blob or a ReadableStream; a synchronous signature over attachment parts needs them as Uint8Array`,
  );
}

/** Whether a part is held otherwise than in memory (a Blob, a stream), to be hashed as read. */
export const streamed = (parts: Iterable<MessagePart> | undefined): boolean => {
  for (const p of parts ?? []) if (!(p.content instanceof Uint8Array)) return true;
  return false;
};

/**
 * `el` as its XOP infoset: a copy in which each `xop:Include` is `inline` of its part, the part's
 * base64 text (`el` itself when it includes none), made in one walk. A part that is missing is
 * refused.
 */
export function expanded(
  el: SigElement,
  parts: MessageParts,
  inline: (part: MessagePart) => string = (p) => base64(bytesOf(p)),
): SigElement | string {
  if (el.ns === XOP_NS && el.local === "Include") {
    const id = cidOf(attrValue(el, "", "href") ?? "");
    const part = id === undefined ? undefined : parts.get(id);
    return part ? inline(part) : refuse("an xop:Include names no part of the message", "malformed");
  }
  let changed = false;
  const children = el.children.map((c) => {
    if (typeof c === "string") return c;
    const x = expanded(c, parts, inline);
    changed ||= x !== c;
    return x;
  });
  return changed ? { ...el, children } : el;
}

/**
 * What a reference to `el` digests: its exclusive C14N, of its XOP infoset when the message is a
 * package (`parts` given), as WCF and WSS4J digest MTOM messages.
 */
export function digestInput(
  el: SigElement,
  prefixes: Iterable<string>,
  parts: MessageParts | undefined,
): string {
  const x = parts ? expanded(el, parts) : el;
  if (typeof x === "string") return refuse("a signed element is an xop:Include", "malformed");
  return excC14n(x, prefixes);
}

/**
 * The XML types whose content is canonicalized by exclusive C14N, as WSS4J reads the profile's
 * "XML Content-Type": a `text/…+xml` part is text to WSS4J, and so to a digest it is to match.
 */
export const XML_TYPE = /^(text|application)\/xml$|^(application|image)\/[^/]*\+xml$/;

/**
 * A part's canonical content (SwA Profile 1.1 §5.4.2): XML by exclusive C14N, other text with
 * CRLF line ends, anything else as it is. Malformed XML is a peer's refusal, or the signer's Error.
 */
export function canonicalContent(part: MessagePart, signing: boolean): Buffer {
  const c = bytesOf(part);
  const bytes = Buffer.from(c.buffer, c.byteOffset, c.byteLength);
  const type = parseMediaType(part.headers["content-type"] ?? "text/plain").type;
  if (XML_TYPE.test(type)) {
    try {
      return Buffer.from(excC14n(readTree(bytes)), "utf8");
    } catch (e) {
      if (!signing) return refuse("an XML attachment part is not well-formed", "malformed");
      const why = e instanceof Error ? e.message : String(e);
      const shown = `<${part.id.slice(0, 100)}> of type ${type}`;
      throw new Error(`the attachment part ${shown} cannot be read as XML: ${why}`, { cause: e });
    }
  }
  if (!type.startsWith("text/")) return bytes;
  return Buffer.from(bytes.toString("latin1").replace(/\r\n|\r|\n/g, "\r\n"), "latin1");
}

/** The MIME headers an Attachment-Complete transform covers, in their canonical order and case. */
const SIGNED_HEADERS = [
  "Content-Description",
  "Content-Disposition",
  "Content-ID",
  "Content-Location",
  "Content-Type",
];

/** RFC 822 comments taken out of a header value, quoted strings kept. */
function uncommented(v: string): string {
  let out = "";
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < v.length; i++) {
    const c = v[i]!;
    if (c === "\\" && (quoted || depth > 0)) {
      if (depth === 0) out += c + (v[i + 1] ?? "");
      i++;
    } else if (quoted) ((out += c), (quoted = c !== '"'));
    else if (c === "(") depth++;
    else if (c === ")" && depth > 0) depth--;
    else if (depth === 0) ((out += c), (quoted = c === '"'));
  }
  return out.trim();
}

/** Parameters whose values are case-insensitive, lower-cased by the profile. */
const CASELESS = new Set(["charset", "type", "padding", "size"]);

/** A Content-Type or Content-Disposition in the profile's form: `type;name="value"`, sorted. */
function canonicalParameters(value: string): string {
  const { type, params } = parseMediaType(value);
  const names = Object.keys(params).sort();
  const param = (n: string) => (CASELESS.has(n) ? params[n]!.toLowerCase() : params[n]!);
  return type + names.map((n) => `;${n}=${quoted(param(n))}`).join("");
}

/** A part's MIME headers as the Attachment-Complete transform digests them (§5.4.1). */
export function canonicalHeaders(part: MessagePart): string {
  let out = "";
  for (const name of SIGNED_HEADERS) {
    let v = part.headers[name.toLowerCase()];
    if (v === undefined && name === "Content-Type") v = "text/plain; charset=us-ascii";
    if (v === undefined) continue;
    v = name === "Content-Description" ? v.trim() : uncommented(v);
    if (name === "Content-Type" || name === "Content-Disposition") v = canonicalParameters(v);
    out += `${name}:${v}\r\n`;
  }
  return out;
}

/** The digest a cid: reference holds: of the part's content, its headers first when `complete`. */
export function partDigest(
  d: DigestName,
  part: MessagePart,
  complete: boolean,
  signing: boolean,
): string {
  const content = canonicalContent(part, signing);
  const hash = createHash(d);
  if (complete) hash.update(canonicalHeaders(part), "utf8");
  return hash.update(content).digest("base64");
}

/**
 * The parts a signer references by `cid:`: none that a signed element includes (its digest covers
 * it), each other. A part included only from an element left unsigned is an Error: it would go
 * unsigned beside a signed envelope.
 */
export function referencedParts(
  root: SigElement,
  signed: readonly SigElement[],
  parts: readonly MessagePart[],
): MessagePart[] {
  const covered = new Set<string | undefined>();
  for (const el of signed) for (const [, id] of includes(el)) covered.add(id);
  const anywhere = new Set([...includes(root)].map(([, id]) => id));
  return parts.filter((p) => {
    if (covered.has(p.id)) return false;
    if (anywhere.has(p.id))
      throw new Error(
        `the attachment part <${p.id}> is included from an element the signature does not cover; expected it in the Body, or its header entry among signedHeaders`,
      );
    return true;
  });
}

/** The SignedInfo reference to a part whose digest (by `digest`) is `value`. */
export function partReferenceXml(
  p: MessagePart,
  digest: DigestName,
  complete: boolean,
  value: string,
): string {
  const transform = complete ? SWA_COMPLETE : SWA_CONTENT;
  return (
    `<ds:Reference URI="${escapeAttr(cidUrl(p.id))}"><ds:Transforms><ds:Transform Algorithm="${transform}"></ds:Transform></ds:Transforms>` +
    `<ds:DigestMethod Algorithm="${DIGESTS[digest]}"></ds:DigestMethod><ds:DigestValue>${value}</ds:DigestValue></ds:Reference>`
  );
}

/** A `cid:` reference of SignedInfo, its part found. */
export interface PartReference {
  readonly part: MessagePart;
  readonly complete: boolean;
  readonly digest: DigestName;
  readonly value: string;
}

/**
 * A verifier's view of one message's attachment parts: the `cid:` references of its SignedInfo
 * (digested once the signature value is checked), the digest input of its element references, and
 * the check that every part is covered.
 */
export class AttachmentCheck {
  private readonly references: PartReference[] = [];

  constructor(
    /** The package's parts; undefined for a message that is no package. */
    readonly parts: MessageParts | undefined,
    /** Whether only the profile's transforms are allowed (the algorithms check). */
    private readonly strict: boolean,
  ) {}

  /** Whether `uri` names an attachment part, to be resolved by `reference`. */
  static names(uri: string): boolean {
    return uri.slice(0, 4).toLowerCase() === "cid:";
  }

  /** Resolves a `cid:` reference: its part, and its one SwA Profile transform. */
  reference(ref: ReferenceRead, digest: DigestName): void {
    const id = cidOf(ref.uri ?? "");
    const part = id === undefined ? undefined : this.parts?.get(id);
    if (!part) return refuse("a signature reference names no part of the message", "malformed");
    if (this.references.some((r) => r.part === part))
      refuse("a signature references one attachment twice", "malformed");
    const list = ref.transforms;
    const algorithm = list.length === 1 ? list[0]!.algorithm : undefined;
    const complete = algorithm === SWA_COMPLETE;
    if (!complete && algorithm !== SWA_CONTENT && this.strict)
      refuse("a transform not allowed", "algorithm");
    this.references.push({ part, complete, digest, value: ref.digestValue });
  }

  /** What a reference to `el` digests (see digestInput). */
  canonical(el: SigElement, prefixes: Iterable<string>): string {
    return digestInput(el, prefixes, this.parts);
  }

  /** The `cid:` references read, to be digested. */
  get referenced(): readonly PartReference[] {
    return this.references;
  }

  /** Refuses a referenced part whose digest does not match. */
  checkDigests(): void {
    for (const r of this.references)
      checkPartDigest(r, partDigest(r.digest, r.part, r.complete, false));
  }

  /**
   * Refuses a part that no reference covers: neither included by a signed element nor referenced
   * by `cid:`.
   */
  checkCovered(signed: readonly SigElement[]): void {
    if (!this.parts) return;
    const covered = new Set<string | undefined>(this.references.map((r) => r.part.id));
    for (const el of signed) for (const [, id] of includes(el)) covered.add(id);
    for (const id of this.parts.keys())
      if (!covered.has(id))
        refuse(
          `the attachment <${id.slice(0, 100)}> is not covered by the signature`,
          "unsigned-attachment",
        );
  }
}

/** Refuses a part whose digest `expected` (base64) is not the one its reference holds. */
export function checkPartDigest(r: PartReference, expected: string): void {
  if (!sameDigest(expected, r.value)) refuse("an attachment does not match its digest", "digest");
}

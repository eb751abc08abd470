/** SOAP 1.1 and 1.2 envelopes and faults, written and read. */
import { childField } from "../descriptors/builders.js";
import { type BodyDesc, type ComplexDesc, type FieldDesc } from "../descriptors/types.js";
import { SoapFault, type SoapVersion } from "../errors.js";
import { keepShapes } from "../support/kept.js";
import { ownValue, setOwn } from "../support/own-props.js";
import { childNode, clark, nodeText, type XmlNode } from "../support/xml-node.js";
import { completeFields, setField } from "../xml/decode-values.js";
import { decodeXml } from "../xml/reader.js";
import { XmlDecodeError, type CustomFrame, type DecodeOptions } from "../xml/decode-options.js";
import { ValueFormatError } from "../scalars/scalars.js";
import type { XmlTag } from "../xml/tokens.js";
import { escapeText } from "../xml/escape.js";
import { writeField } from "../xml/writer.js";
import { XSD_NS, XSI_NS } from "../xml/namespaces.js";

export const SOAP11_ENV = "http://schemas.xmlsoap.org/soap/envelope/";
export const SOAP12_ENV = "http://www.w3.org/2003/05/soap-envelope";

export const envelopeNs = (v: SoapVersion): string => (v === "1.1" ? SOAP11_ENV : SOAP12_ENV);

const XML_DECL = '<?xml version="1.0" encoding="utf-8"?>';

/**
 * An envelope around body XML, in the shape ASMX writes (prefix `soap` for both versions), with a
 * SOAP Header when `header` holds header entries.
 */
export function envelope(version: SoapVersion, body: string, header = ""): string {
  const head = header === "" ? "" : `<soap:Header>${header}</soap:Header>`;
  return `${XML_DECL}<soap:Envelope xmlns:soap="${envelopeNs(version)}" xmlns:xsi="${XSI_NS}" xmlns:xsd="${XSD_NS}">${head}<soap:Body>${body}</soap:Body></soap:Envelope>`;
}

/**
 * The SOAP header entries `props` of the typed bag `values`, written from the service's header
 * type.
 */
export function headerXml(
  headers: ComplexDesc | undefined,
  props: readonly string[] | undefined,
  values: Readonly<Record<string, unknown>> | undefined,
): string {
  if (!headers || !props || !values) return "";
  const out: string[] = [];
  for (const f of headers.fields) {
    const v = ownValue(values, f.prop);
    if (props.includes(f.prop) && v !== undefined) writeField(out, f, v, "", "soapHeaders");
  }
  return out.join("");
}

/** The envelope carrying `value` as the body element `element`, and the given header entries. */
export function bodyEnvelope(
  version: SoapVersion,
  element: FieldDesc | undefined,
  value: unknown,
  header = "",
): string {
  return envelope(version, bodyXml(element && { element }, value), header);
}

/**
 * The content of a SOAP Body: `value` as the body element, or, for a multi-part body, each part's
 * element from the property of the part's name, in part order.
 */
export function bodyXml(body: BodyDesc | undefined, value: unknown): string {
  if (!body) return "";
  const out: string[] = [];
  if (!body.parts) {
    writeField(out, body.element, value, "", "");
    return out.join("");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ValueFormatError(
      `the message body must be an object with one property per part (${body.parts.fields.map((f) => f.prop).join(", ")})`,
    );
  }
  for (const f of body.parts.fields)
    writeField(out, f, ownValue(value as Record<string, unknown>, f.prop), "", "");
  return out.join("");
}

/** The fault code for a side of the blame, in the given SOAP version. */
export function faultCode(version: SoapVersion, side: "Client" | "Server"): string {
  if (version === "1.1") return `soap:${side}`;
  return side === "Client" ? "soap:Sender" : "soap:Receiver";
}

/** A fault envelope. `detailXml` is trusted XML placed inside the detail element. */
export function faultEnvelope(
  version: SoapVersion,
  code: string,
  message: string,
  detailXml = "",
  header = "",
): string {
  const text = escapeText(message);
  if (version === "1.1") {
    const detail = detailXml ? `<detail>${detailXml}</detail>` : "<detail />";
    return envelope(
      version,
      `<soap:Fault><faultcode>${code}</faultcode><faultstring>${text}</faultstring>${detail}</soap:Fault>`,
      header,
    );
  }
  const detail = detailXml ? `<soap:Detail>${detailXml}</soap:Detail>` : "<soap:Detail />";
  return envelope(
    version,
    `<soap:Fault><soap:Code><soap:Value>${code}</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">${text}</soap:Text></soap:Reason>${detail}</soap:Fault>`,
    header,
  );
}

export interface DecodedEnvelope {
  readonly version: SoapVersion;
  /**
   * The first element inside Body, when there is one; for a multi-part body, `value` holds every
   * part by property and `field` is the first part's.
   */
  readonly body:
    | {
        readonly ns: string;
        readonly local: string;
        readonly field: FieldDesc | undefined;
        readonly value: unknown;
      }
    | undefined;
  readonly fault: XmlNode | undefined;
  /** Body entries after the operation's element, or parts repeated, when the reader keeps them. */
  readonly undescribed: readonly XmlNode[];
  /** The SOAP Header entries the header type declares, by property; others are not read. */
  readonly headers: Record<string, unknown>;
  /**
   * Header entries marked `mustUnderstand` for this receiver that the header type does not declare.
   */
  readonly notUnderstood: readonly { readonly ns: string; readonly local: string }[];
  /**
   * The header entries the header type does not declare, as element trees (a `wsse:Security`, say),
   * when the reader was asked to keep them; else none.
   */
  readonly otherHeaders: readonly XmlNode[];
}

/**
 * Roles meaning "this receiver" (SOAP 1.1 `actor`, SOAP 1.2 `role`); no attribute means the same.
 */
const OUR_ROLES = new Set([
  "http://schemas.xmlsoap.org/soap/actor/next",
  "http://www.w3.org/2003/05/soap-envelope/role/next",
  "http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver",
]);

/** Whether a header entry must be understood by this receiver. */
function mustUnderstand(tag: XmlTag, envNs: string): boolean {
  let must = false;
  for (const a of tag.attributes) {
    if (a.uri !== envNs) continue;
    const v = a.value.trim();
    if (a.local === "mustUnderstand") must = v === "1" || v === "true";
    else if ((a.local === "actor" || a.local === "role") && !OUR_ROLES.has(v)) return false;
  }
  return must;
}

type PickBody = (
  ns: string,
  local: string,
  version: SoapVersion,
) => FieldDesc | ComplexDesc | StreamedBody | undefined;

/**
 * A body element read through a frame of its own (a streamed result, whose items go elsewhere as
 * they come: client/stream.ts): the body is then `field`, its value `value` (what stands for it).
 */
export interface StreamedBody {
  readonly field: FieldDesc;
  readonly frame: CustomFrame;
  readonly value: unknown;
}

/** What decodeEnvelope gathers while it reads. */
class EnvelopeState {
  readonly headers: Record<string, unknown> = {};
  readonly notUnderstood: { ns: string; local: string }[] = [];
  readonly otherHeaders: XmlNode[] = [];
  version: SoapVersion | undefined;
  envNs = "";
  body: DecodedEnvelope["body"];
  fault: XmlNode | undefined;
  rootName: string | undefined;
  sawBody = false;
  sawHeader = false;
  parts: { readonly desc: ComplexDesc; readonly values: Record<string, unknown> } | undefined;
  /** Body entries the operation does not describe (after its element, or a part repeated). */
  readonly undescribed: XmlNode[] = [];
  constructor(
    readonly pick: PickBody,
    readonly headerType: ComplexDesc | undefined,
    /**
     * Whether undeclared header entries are kept as trees (a server's implementation may read
     * them).
     */
    readonly keepUndeclared = false,
    /** Refuse undescribed Body entries (see DecodeOptions.undescribed) rather than keep them. */
    readonly refuse = false,
  ) {}

  /** A Body entry the operation does not describe: kept as a tree, or refused. */
  extra(ns: string, local: string, why = "is not allowed in the SOAP Body"): "tree" {
    if (this.refuse)
      throw new XmlDecodeError(`element ${clark(ns, local)} ${why}`, "invalid", local);
    return "tree";
  }
}

const enum Level {
  Document,
  Envelope,
  Header,
  Body,
}

/**
 * The frames around the typed content of an envelope: the document, Envelope, Header and Body, as
 * one class (the reader calls them for a few elements per document; one shape, kept alive below,
 * spares the reader's optimized code from being thrown away when a document's frames are
 * collected).
 */
class EnvelopeFrame implements CustomFrame {
  constructor(
    private readonly st: EnvelopeState,
    private readonly level: Level,
  ) {}

  child(ns: string, local: string, tag: XmlTag): FieldDesc | "tree" | "skip" | CustomFrame {
    const st = this.st;
    switch (this.level) {
      case Level.Document:
        st.rootName = `{${ns}}${local}`;
        if (local !== "Envelope" || (ns !== SOAP11_ENV && ns !== SOAP12_ENV)) return "skip";
        st.version = ns === SOAP11_ENV ? "1.1" : "1.2";
        st.envNs = ns;
        return new EnvelopeFrame(st, Level.Envelope);
      case Level.Envelope:
        if (ns !== st.envNs || (local !== "Header" && local !== "Body")) return "skip";
        // One optional Header, then one Body: a second (or a late Header) would let one reader
        // see other content than another, so it is refused, not merged or skipped.
        if (st.sawBody || (local === "Header" && st.sawHeader)) {
          const after = st.sawBody ? "Body" : "Header";
          throw new XmlDecodeError(
            `the SOAP envelope has a ${local} after its ${after}`,
            "unexpected",
          );
        }
        if (local === "Header") st.sawHeader = true;
        else st.sawBody = true;
        return new EnvelopeFrame(st, local === "Header" ? Level.Header : Level.Body);
      case Level.Header: {
        const f = st.headerType && childField(st.headerType, ns, local);
        if (f) return f;
        if (mustUnderstand(tag, st.envNs)) st.notUnderstood.push({ ns, local });
        return st.keepUndeclared ? "tree" : "skip";
      }
      case Level.Body: {
        if (st.parts && !st.fault) {
          const part = childField(st.parts.desc, ns, local);
          if (!part) return st.extra(ns, local);
          if (part.max <= 1 && Object.hasOwn(st.parts.values, part.prop))
            return st.extra(ns, local, "occurs more than once in the SOAP Body");
          return part;
        }
        if (st.fault) return "skip";
        if (st.body) return st.body.field ? st.extra(ns, local) : "skip";
        if (ns === st.envNs && local === "Fault") return "tree";
        const f = st.pick(ns, local, st.version!);
        if (f !== undefined && "frame" in f) {
          st.body = { ns, local, field: f.field, value: f.value };
          return f.frame;
        }
        if (f !== undefined && "k" in f) {
          st.parts = { desc: f, values: {} };
          return childField(f, ns, local) ?? "skip";
        }
        if (!f) {
          st.body = { ns, local, field: undefined, value: undefined };
          return "skip";
        }
        return f;
      }
    }
  }

  done(ns: string, local: string, value: unknown, field: FieldDesc | undefined): void {
    const st = this.st;
    if (this.level === Level.Header) {
      if (field) setOwn(st.headers, field.prop, value);
      else if (typeof value === "object" && value !== null) st.otherHeaders.push(value as XmlNode);
    } else if (this.level === Level.Body) {
      if (
        !field &&
        typeof value === "object" &&
        value !== null &&
        (value as XmlNode).local === "Fault" &&
        !st.body
      )
        st.fault = value as XmlNode;
      else if (!field && typeof value === "object" && value !== null)
        st.undescribed.push(value as XmlNode);
      else if (field && st.parts) {
        setField(st.parts.values, field, value);
        st.body ??= { ns, local, field, value: st.parts.values };
      } else if (field) st.body = { ns, local, field, value };
    }
  }
}

// One of each kept for good: see EnvelopeFrame and support/kept.ts.
keepShapes(new EnvelopeFrame(new EnvelopeState(() => undefined, undefined), Level.Document));

/**
 * Reads an envelope. `pick` chooses the descriptor for the body element; elements it does not know
 * are skipped (their name is still reported). When it gives the parts of a multi-part body
 * (`BodyDesc.parts`), that element and the ones after it are read as those parts. Bytes are read
 * as UTF-8.
 */
export function decodeEnvelope(
  xml: string | Uint8Array,
  pick: PickBody,
  options?: DecodeOptions,
  headerType?: ComplexDesc,
  keepUndeclaredHeaders = false,
): DecodedEnvelope {
  const reader = envelopeReader(pick, options, headerType, keepUndeclaredHeaders);
  decodeXml(xml, reader.root, options);
  return reader.result();
}

/**
 * What reads an envelope: the frame to decode a document with (whole or in chunks), then its
 * result.
 */
export interface EnvelopeReader {
  readonly root: CustomFrame;
  /** The envelope read; fails when the document was no SOAP envelope with a Body. */
  result(): DecodedEnvelope;
}

/**
 * An envelope reader, as `decodeEnvelope` uses one (`keepUndeclaredHeaders`: see
 * DecodedEnvelope.otherHeaders).
 */
export function envelopeReader(
  pick: PickBody,
  options?: DecodeOptions,
  headerType?: ComplexDesc,
  keepUndeclaredHeaders = false,
): EnvelopeReader {
  const refuse = options?.undescribed === "refuse";
  const st = new EnvelopeState(pick, headerType, keepUndeclaredHeaders, refuse);
  return {
    root: new EnvelopeFrame(st, Level.Document),
    result: () => {
      const version = st.version;
      if (!version) {
        throw new XmlDecodeError(
          st.rootName
            ? `the document element is ${st.rootName}; expected a SOAP Envelope`
            : "the document has no root element",
          st.rootName ? "unexpected" : "malformed",
        );
      }
      if (!st.sawBody)
        throw new XmlDecodeError("the SOAP envelope has no Body element", "unexpected");
      if (st.parts && !st.fault)
        completeFields(
          st.parts.desc.fields,
          st.parts.values,
          options?.strict ?? true,
          "the SOAP Body",
        );
      return {
        version,
        body: st.body,
        fault: st.fault,
        headers: st.headers,
        notUnderstood: st.notUnderstood,
        otherHeaders: st.otherHeaders,
        undescribed: st.undescribed,
      };
    },
  };
}

/**
 * A received fault as a `SoapFault`, or what it lacks. A code or a reason missing under the
 * version's own names is read from the other version's (`faultcode`/`faultstring` in a 1.2 fault,
 * `Code`/`Value` and `Reason`/`Text` in a 1.1 one, as some gSOAP servers send); lacking both, the
 * fault is malformed and its text says which.
 */
export function faultFromNode(
  node: XmlNode,
  version: SoapVersion,
  httpStatus: number,
): SoapFault | string {
  const v11 = { code: text11(node, "faultcode"), reason: text11(node, "faultstring") };
  const v12 = { code: text12(node, "Code", "Value"), reason: text12(node, "Reason", "Text") };
  const [own, other] = version === "1.1" ? [v11, v12] : [v12, v11];
  const code = own.code ?? other.code;
  const reason = own.reason ?? other.reason;
  if (code === undefined || reason === undefined) {
    const [codeName, reasonName] =
      version === "1.1" ? ["faultcode", "faultstring"] : ["Code/Value", "Reason/Text"];
    const missing = [code === undefined && codeName, reason === undefined && reasonName];
    return `has no ${missing.filter(Boolean).join(" and no ")}`;
  }
  const detail =
    version === "1.1" ? childNode(node, "detail") : childNode(node, "Detail", SOAP12_ENV);
  return new SoapFault({
    code: code.trim(),
    message: reason,
    ...(detail ? { detail } : {}),
    httpStatus,
    soapVersion: version,
  });
}

/** The text of a SOAP 1.1-style fault child (unqualified, as SOAP 1.1 writes them). */
function text11(node: XmlNode, local: string): string | undefined {
  const c = childNode(node, local);
  return c && nodeText(c);
}

/** The text of a SOAP 1.2-style `Code/Value` or `Reason/Text`, in whatever namespace it came. */
function text12(node: XmlNode, outer: string, inner: string): string | undefined {
  const o = childNode(node, outer);
  const c = o && childNode(o, inner);
  return c && nodeText(c);
}

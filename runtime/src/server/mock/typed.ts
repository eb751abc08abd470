/**
 * A response file's result made typed: a JSON value revived through the descriptor (lexical
 * strings of big integers and binaries made values), then written and read back as the wire would
 * carry it, so that a value the schema refuses is found when the file is read, not when a request
 * asks for it; and an `.xml` file's result element (or whole envelope) decoded the same way.
 */
import type { BodyDesc, ComplexDesc, FieldDesc, TypeDesc } from "../../descriptors/types.js";
import type { OperationDesc, ServiceDesc } from "../../descriptors/operations.js";
import { parseScalar, ValueFormatError, type ScalarKind } from "../../scalars/scalars.js";
import { writeElement } from "../../xml/writer.js";
import { decodeDocument } from "../../xml/reader.js";
import { decodeEnvelope } from "../../soap/envelope.js";
import { XSD_NS, XSI_NS } from "../../xml/namespaces.js";
import { childNode, nodeText, type XmlNode } from "../../support/xml-node.js";
import { writeNode } from "../../xml/write-tree.js";
import { REDACTED, type MockFault } from "./types.js";

/**
 * What a redacted value of a type that is not a string replays: the type's plainest value, so a
 * recording of a binary token or a numeric key still loads (the file keeps saying `[redacted]`).
 */
const REDACTED_AS: Partial<Record<ScalarKind, string>> = {
  boolean: "false",
  positiveInteger: "1",
  negativeInteger: "-1",
  dateTime: "0001-01-01T00:00:00",
  date: "0001-01-01",
  time: "00:00:00",
  base64Binary: "",
  hexBinary: "",
};

/** The operation a method stands for, on the service's SOAP ports first (as samples are built). */
export function operationFor(service: ServiceDesc, method: string): OperationDesc | undefined {
  const name = service.methods[method];
  const ports = Object.values(service.ports).sort(
    (a, b) => Number(a.protocol.startsWith("http")) - Number(b.protocol.startsWith("http")),
  );
  return ports.map((p) => (name === undefined ? undefined : p.operations[name])).find(Boolean);
}

const resultOf = (op: OperationDesc): BodyDesc | undefined =>
  op.kind === "soap" && op.oneWay ? undefined : op.response;

/** The typed result of a JSON `response`; throws a ValueFormatError naming the path at fault. */
export function typedResult(op: OperationDesc, json: unknown): unknown {
  const b = resultOf(op);
  if (!b || b.void) {
    if (json !== null && json !== undefined)
      throw new ValueFormatError('the operation returns nothing; expected "response": null');
    return undefined;
  }
  if (b.parts) throw new ValueFormatError("a multi-part result is not supported in response files");
  const element = b.prop === undefined ? json : { [b.prop]: json };
  const revived = revive(b.element.type, element, "response");
  const out: string[] = [];
  const declarations = `xmlns:xsi="${XSI_NS}" xmlns:xsd="${XSD_NS}"`;
  const e = b.element;
  writeElement(out, e.name, e.ns, "", e.type, revived, e.nillable, "response", declarations);
  return unwrap(b, decodeDocument(out.join(""), [e]).value);
}

const unwrap = (b: BodyDesc, value: unknown): unknown =>
  b.prop === undefined || value === null || typeof value !== "object"
    ? value
    : (value as Record<string, unknown>)[b.prop];

const ENVELOPE = /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<([\w.-]+:)?Envelope[\s>/]/;

/** An `.xml` file: the result element as the service sends it, or a whole envelope (or fault). */
export function xmlAnswer(
  op: OperationDesc,
  xml: string,
): { readonly value: unknown } | { readonly fault: MockFault } {
  const b = resultOf(op);
  if (!ENVELOPE.test(xml)) {
    if (!b || b.void) throw new ValueFormatError("the operation returns nothing; expected no file");
    return { value: unwrap(b, decodeDocument(xml, [b.element]).value) };
  }
  const pick = (ns: string, local: string) =>
    b && b.element.ns === ns && b.element.name === local ? b.element : undefined;
  const decoded = decodeEnvelope(xml, pick);
  if (decoded.fault) return { fault: faultOf(decoded.fault) };
  if (!b || b.void) return { value: undefined };
  if (!decoded.body?.field)
    throw new ValueFormatError(`the envelope's Body holds no ${b.element.name} element`);
  return { value: unwrap(b, decoded.body.value) };
}

/** A SOAP 1.1 (faultcode, faultstring, detail) or 1.2 (Code/Value, Reason/Text, Detail) fault. */
function faultOf(node: XmlNode): MockFault {
  const code =
    childNode(node, "faultcode") ?? childNode(childNode(node, "Code") ?? node, "Value") ?? node;
  const reason =
    childNode(node, "faultstring") ?? childNode(childNode(node, "Reason") ?? node, "Text");
  const detail = childNode(node, "detail") ?? childNode(node, "Detail");
  const out: string[] = [];
  for (const c of detail?.children ?? []) if (typeof c !== "string") writeNode(out, c, "");
  const local = nodeText(code).trim().replace(/^.*:/, "");
  return {
    code: local === "" ? "Server" : local,
    message: reason ? nodeText(reason).trim() : "",
    ...(out.length > 0 ? { detail: out.join("") } : {}),
  };
}

/** `value` with the lexical strings of non-string scalars parsed, by the descriptor's types. */
function revive(type: TypeDesc, value: unknown, path: string): unknown {
  if (value === null || value === undefined) return value;
  if (type.k === "scalar") {
    if (type.list && Array.isArray(value))
      return value.map((v, i) => revive({ ...type, list: false }, v, `${path}[${i}]`));
    if (typeof value !== "string" || type.s === "string" || type.s === "anyType") return value;
    // A response file holds every binary as base64 (as the recorder writes it), hexBinary too.
    const kind = type.s === "hexBinary" ? "base64Binary" : type.s;
    const text = value === REDACTED ? (REDACTED_AS[kind] ?? "0") : value;
    try {
      return parseScalar(kind, text);
    } catch (e) {
      throw e instanceof ValueFormatError ? new ValueFormatError(`${path}: ${e.message}`) : e;
    }
  }
  if (type.k === "array")
    return Array.isArray(value)
      ? value.map((v, i) => revive(type.item.type, v, `${path}[${i}]`))
      : value;
  if (typeof value !== "object" || Array.isArray(value)) return value;
  return reviveComplex(familyMember(type, value), value as Record<string, unknown>, path);
}

/** The type a value of a derivation family names by its `$type`. */
function familyMember(type: ComplexDesc, value: object): ComplexDesc {
  const tag = (value as { $type?: unknown }).$type;
  return type.family?.derived.find((d) => d.family?.tag === tag) ?? type;
}

function reviveComplex(type: ComplexDesc, value: Record<string, unknown>, path: string): unknown {
  const out: Record<string, unknown> = { ...value };
  const field = (f: FieldDesc) => {
    const v = value[f.prop];
    const at = `${path}.${f.prop}`;
    out[f.prop] = Array.isArray(v)
      ? v.map((x, i) => revive(f.type, x, `${at}[${i}]`))
      : revive(f.type, v, at);
  };
  for (const f of type.fields) if (f.tag === undefined && value[f.prop] !== undefined) field(f);
  for (const a of type.attrs)
    if (value[a.prop] !== undefined)
      out[a.prop] = revive(a.type, value[a.prop], `${path}.${a.prop}`);
  if (type.text && value["$value"] !== undefined)
    out["$value"] = revive(type.text, value["$value"], `${path}.$value`);
  return out;
}

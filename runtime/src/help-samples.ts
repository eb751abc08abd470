/**
 * The sample messages of the help pages. A sample is a typed value built from the descriptors and
 * written by the writer the server uses (`bodyXml`, `envelope`, `writeElement`,
 * `encodeHttpParams`),
 * so it is a message the server would accept or send. Each scalar holds a stand-in value that is
 * valid for its type and tells its type (and whether it is optional) apart; the page shows the type
 * name in its place (`string`, `int`, `dateTime`), keeping the value in a `data-value` attribute.
 */
import {
  xs,
  type ComplexDesc,
  type FieldDesc,
  type ScalarDesc,
  type TypeDesc,
} from "./descriptors.js";
import type { SoapVersion } from "./errors.js";
import { encodeHttpParams } from "./http-binding.js";
import type { HttpOperationDesc, SoapOperationDesc } from "./operations.js";
import { parseScalar, type ScalarKind } from "./scalars.js";
import { bodyXml, envelope } from "./soap.js";
import { writeElement, XSD_NS, XSI_NS } from "./xml-writer.js";
import { pathBase } from "./server-routes.js";

/** How deep a sample goes before it leaves optional content out (recursive types end there). */
const MAX_DEPTH = 6;
/** How deep it goes at all: a required recursion ends here, and such a sample may be incomplete. */
const HARD_DEPTH = 12;

/** Every scalar kind, from the built-in descriptors. */
const KINDS = Object.keys(xs) as ScalarKind[];

/**
 * The lexical stand-in of a kind, required (`opt` false) or optional: `code` keeps them all
 * distinct.
 */
function standInText(kind: ScalarKind, opt: boolean, code: number): string {
  const day = opt ? "02" : "01";
  switch (kind) {
    case "string":
    case "anyType":
      return opt ? `${kind} (optional)` : kind;
    case "boolean":
      return opt ? "false" : "true";
    case "decimal":
      return `${code}.5`;
    case "float":
    case "double":
      return `${code}.25`;
    case "dateTime":
      return `2001-01-${day}T00:00:00`;
    case "date":
      return `2001-01-${day}`;
    case "time":
      return `${day}:00:00`;
    case "base64Binary":
      return opt ? "Ag==" : "AQ==";
    case "hexBinary":
      return opt ? "02" : "01";
    case "nonPositiveInteger":
    case "negativeInteger":
      return `-${code}`;
    default:
      return String(code);
  }
}

/** What a stand-in text stands for, by its text. */
export interface StandIn {
  readonly kind: ScalarKind;
  readonly optional: boolean;
}

/** Every stand-in, by its lexical form (as written, and as it appears in a written sample). */
export const STAND_INS: ReadonlyMap<string, StandIn> = new Map(
  KINDS.flatMap((kind, i) =>
    [false, true].map(
      (optional) =>
        [standInText(kind, optional, 2 * i + (optional ? 2 : 1)), { kind, optional }] as const,
    ),
  ),
);
const standInOf = new Map([...STAND_INS].map(([text, s]) => [`${s.kind}/${s.optional}`, text]));

/**
 * The typed stand-in of a scalar type: its first enumerated value if it has some; two for a list.
 */
function scalarSample(d: ScalarDesc, optional: boolean): unknown {
  const text = d.values?.[0] ?? standInOf.get(`${d.s}/${optional}`) ?? "";
  const one = parseScalar(d.s, text);
  return d.list ? [one, one] : one;
}

/**
 * A sample value of a type (undefined when none can be made, e.g. an abstract type without
 * members).
 */
function sampleOf(type: TypeDesc, optional: boolean, depth = 0): unknown {
  if (type.k === "scalar") return scalarSample(type, optional);
  if (type.k === "array") {
    const item = occurrenceSample(type.item, depth + 1);
    return item === undefined ? [] : [item, item];
  }
  return complexSample(type, depth);
}

function complexSample(type: ComplexDesc, depth: number): Record<string, unknown> | undefined {
  let c = type;
  let tag: string | undefined;
  if (type.family?.abstract) {
    // Family.derived lists concrete types only.
    const concrete = type.family.derived[0];
    if (!concrete) return undefined;
    c = concrete;
    tag = concrete.family?.tag;
  }
  const obj: Record<string, unknown> = tag === undefined ? {} : { $type: tag };
  for (const a of c.attrs)
    if (a.fixed === undefined) obj[a.prop] = scalarSample(a.type, !a.required);
  if (c.text) obj["$value"] = scalarSample(c.text, false);
  for (const f of c.fields) {
    const v = fieldSample(f, depth + 1);
    if (v !== undefined) obj[f.prop] = v;
  }
  return obj;
}

/** The property value of a field: two items when it repeats; undefined when it is left out. */
function fieldSample(f: FieldDesc, depth: number): unknown {
  const one = occurrenceSample(f, depth);
  return one === undefined || f.max <= 1 ? one : [one, one];
}

/** One occurrence of a field's element; undefined when it is left out. */
function occurrenceSample(f: FieldDesc, depth: number): unknown {
  // A fixed value is written by the writer itself; a repeated choice branch is one of several.
  if (f.fixed !== undefined || f.choice) return undefined;
  if (depth > (f.min === 0 ? MAX_DEPTH : HARD_DEPTH)) return undefined;
  if (!f.abstract) return sampleOf(f.type, f.min === 0, depth);
  const member = (f.substitutes ?? []).find((m) => m.type.k === "complex");
  const v = member && sampleOf(member.type, f.min === 0, depth);
  return v === undefined ? undefined : { ...(v as object), $element: member!.name };
}

/** The sample of an element field's own value (not the property: one occurrence). */
function elementSample(f: FieldDesc): unknown {
  return sampleOf(f.type, false) ?? {};
}

/** One sample message: an HTTP request or response, head and body as text. */
export interface SampleMessage {
  readonly head: string;
  readonly body: string;
}

/** The request and response of one operation over one port. */
export interface Sample {
  readonly request: SampleMessage;
  readonly response: SampleMessage | undefined;
}

const LENGTH = "Content-Length: length";

/**
 * The sample exchange of a SOAP operation (the body of a multi-part message: one value per part).
 */
export function soapSample(
  version: SoapVersion,
  path: string,
  host: string,
  op: SoapOperationDesc,
): Sample {
  const type = version === "1.1" ? "text/xml" : "application/soap+xml";
  const action = op.action ?? "";
  const ct =
    version === "1.1"
      ? `Content-Type: ${type}; charset=utf-8\n${LENGTH}\nSOAPAction: "${action}"`
      : `Content-Type: ${type}; charset=utf-8${action ? `; action="${action}"` : ""}\n${LENGTH}`;
  const body = (b: SoapOperationDesc["request"]) =>
    indentXml(envelope(version, b ? bodyXml(b, bodyValue(b)) : ""));
  return {
    request: { head: `POST ${path} HTTP/1.1\nHost: ${host}\n${ct}`, body: body(op.request) },
    response: op.oneWay
      ? undefined
      : { head: `HTTP/1.1 200 OK\n${ct.split("\nSOAPAction")[0]}`, body: body(op.response) },
  };
}

function bodyValue(b: NonNullable<SoapOperationDesc["request"]>): unknown {
  if (!b.parts) return elementSample(b.element);
  return Object.fromEntries(b.parts.fields.map((f) => [f.prop, fieldSample(f, 0)]));
}

/** The typed input of an HTTP operation whose parameters all hold their stand-ins. */
function httpInput(op: HttpOperationDesc): Record<string, unknown> {
  return Object.fromEntries(
    op.params.map((p) => {
      const v = scalarSample(p.type, !p.required);
      return [p.prop, p.repeated ? [v, v] : v];
    }),
  );
}

/** The sample exchange of an HTTP GET or POST operation at `base` (the port's path). */
export function httpSample(
  verb: "GET" | "POST",
  base: string,
  host: string,
  op: HttpOperationDesc,
): Sample {
  const params = encodeHttpParams(op, httpInput(op)).toString();
  const url = pathBase(base) + op.location;
  const request =
    verb === "GET"
      ? { head: `GET ${url}${params ? `?${params}` : ""} HTTP/1.1\nHost: ${host}`, body: "" }
      : {
          head: `POST ${url} HTTP/1.1\nHost: ${host}\nContent-Type: application/x-www-form-urlencoded\n${LENGTH}`,
          body: params,
        };
  let response: SampleMessage = { head: "HTTP/1.1 200 OK", body: "" };
  if (op.response && !op.response.void) {
    const el = op.response.element;
    const out: string[] = ['<?xml version="1.0" encoding="utf-8"?>'];
    const extra = ` xmlns:xsd="${XSD_NS}" xmlns:xsi="${XSI_NS}"`;
    writeElement(out, el.name, el.ns, "", el.type, elementSample(el), true, el.prop, extra);
    response = {
      head: `HTTP/1.1 200 OK\nContent-Type: text/xml; charset=utf-8\n${LENGTH}`,
      body: indentXml(out.join("")),
    };
  }
  return {
    request,
    response,
  };
}

/**
 * Written XML laid out one element a line, for reading: white space goes only between two tags
 * with nothing between them, so no text changes. The writer escapes `>` in text and attribute
 * values, so every `>` ends a tag.
 */
export function indentXml(xml: string): string {
  const parts = xml.split(/(<[^>]*>)/).filter((p) => p !== "");
  let depth = 0;
  let out = "";
  let prevTag = false;
  for (const p of parts) {
    const tag = p.startsWith("<");
    const closing = p.startsWith("</");
    if (closing) depth--;
    if (tag && prevTag && out !== "") out += "\n" + "  ".repeat(Math.max(depth, 0));
    out += p;
    if (tag && !closing && !p.endsWith("/>") && !p.startsWith("<?")) depth++;
    prevTag = tag;
  }
  return out;
}

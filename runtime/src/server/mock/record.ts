/**
 * Recording: an exchange forwarded to the real service, stored as a response file whose match is
 * the request's input fields. Only the typed input and result (or fault) are stored (no HTTP
 * header, so no Authorization or Cookie; no SOAP header, so no WS-Security), and fields whose names
 * say password, secret, token or key, in the input, the result and the fault's detail, hold
 * REDACTED instead of their value.
 */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { SoapFault } from "../../errors.js";
import { jsonReplacer } from "../../support/json.js";
import type { XmlNode } from "../../support/xml-node.js";
import { writeNode } from "../../xml/write-tree.js";
import { jsonForm } from "./dispatch.js";
import { REDACTED, type MockFault } from "./types.js";

const SECRET =
  /password|passwd|passphrase|^pass$|pwd|secret|token|api[-_]?key|credential|authorization/i;

/** The input's fields by dotted path, each in its JSON form; secrets replaced by REDACTED. */
export function matchOf(input: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const walk = (v: unknown, key: string) => {
    const last = key.slice(key.lastIndexOf(".") + 1);
    if (key !== "" && SECRET.test(last)) out[key] = REDACTED;
    else if (v !== null && typeof v === "object" && isPlain(v))
      for (const [k, x] of Object.entries(v)) walk(x, key === "" ? k : `${key}.${k}`);
    else if (v !== undefined && key !== "") out[key] = jsonForm(v);
  };
  walk(input, "");
  return out;
}

/** Arrays and plain objects are walked into; dates, bytes and the like are values. */
const isPlain = (v: object) =>
  Array.isArray(v) ||
  Object.getPrototypeOf(v) === Object.prototype ||
  Object.getPrototypeOf(v) === null;

/**
 * A result with every member whose name, or an enclosing member's, says secret holding REDACTED:
 * the structure is kept so that a redacted string still replays. `name` is the result's own when
 * it is an unwrapped element's value (`GetTokenResult`).
 */
export function redactedResult(value: unknown, name = ""): unknown {
  const walk = (v: unknown, secret: boolean): unknown => {
    if (v === null || v === undefined) return v;
    // An XML tree (anyType, xs:any) is redacted by its elements' names, as a fault's detail is.
    if (isXmlNode(v)) return secret ? { ...v, attrs: {}, children: [REDACTED] } : redactedNode(v);
    if (typeof v === "object" && isPlain(v)) {
      if (Array.isArray(v)) return v.map((x) => walk(x, secret));
      const entries = Object.entries(v).map(([k, x]) => [k, walk(x, secret || SECRET.test(k))]);
      return Object.fromEntries(entries);
    }
    return secret ? REDACTED : v;
  };
  return walk(value, name !== "" && SECRET.test(name));
}

/** An element's tree as the decoder gives it (`XmlNode`), not a typed value. */
const isXmlNode = (v: unknown): v is XmlNode =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as XmlNode).local === "string" &&
  Array.isArray((v as XmlNode).children) &&
  typeof (v as XmlNode).attrs === "object";

/** A fault detail's tree with the text of each element whose name says secret as REDACTED. */
function redactedNode(node: XmlNode): XmlNode {
  if (SECRET.test(node.local)) return { ...node, children: [REDACTED] };
  const attrs = Object.entries(node.attrs).map(([k, v]) => [
    k,
    SECRET.test(k.slice(k.lastIndexOf("}") + 1)) ? REDACTED : v,
  ]);
  const children = node.children.map((c) => (typeof c === "string" ? c : redactedNode(c)));
  return { ...node, attrs: Object.fromEntries(attrs), children };
}

/** A detail given as XML text: the text of each simple element whose name says secret. */
const redactedText = (xml: string): string =>
  xml.replace(/<(([\w.-]+:)?([\w.-]+))(\s[^>]*)?>[^<]*<\/\1\s*>/g, (all, tag, _p, local, at) =>
    SECRET.test(local) ? `<${tag}${at ?? ""}>${REDACTED}</${tag}>` : all,
  );

/**
 * What a received fault is stored as: its code without prefix, string, detail as XML (secrets
 * redacted), status.
 */
export function storedFault(f: SoapFault): MockFault {
  const out: string[] = [];
  if (typeof f.detail === "string") out.push(redactedText(f.detail));
  else
    for (const c of f.detail?.children ?? [])
      if (typeof c !== "string") writeNode(out, redactedNode(c), "");
  return {
    code: f.code.replace(/^.*:/, ""),
    message: f.message,
    ...(out.length > 0 ? { detail: out.join("") } : {}),
    ...(f.httpStatus !== undefined ? { status: f.httpStatus } : {}),
  };
}

/**
 * Writes the exchange to `dir/<operation>/recorded-<hash of the match>.json` (the same request
 * recorded again replaces its file); gives the file's path.
 */
export function writeRecording(
  dir: string,
  operation: string,
  match: Record<string, unknown>,
  answer: { value: unknown } | { fault: MockFault },
): string {
  const key = createHash("sha256").update(JSON.stringify(match)).digest("hex").slice(0, 12);
  const file = path.join(dir, operation, `recorded-${key}.json`);
  const body =
    "fault" in answer ? { match, fault: answer.fault } : { match, response: answer.value ?? null };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(body, jsonReplacer, 2)}\n`);
  return file;
}

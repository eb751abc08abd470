/**
 * Recording: an exchange forwarded to the real service, stored as a response file whose match is
 * the request's input fields. Credentials are never stored: only the typed input and result are
 * (no HTTP header, so no Authorization or Cookie; no SOAP header, so no WS-Security), and input
 * fields whose names say password, secret, token or key hold REDACTED instead of their value.
 */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { SoapFault } from "../../errors.js";
import { jsonReplacer } from "../../support/json.js";
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

/** What a received fault is stored as: its code without prefix, string, detail as XML, status. */
export function storedFault(f: SoapFault): MockFault {
  const out: string[] = [];
  if (typeof f.detail === "string") out.push(f.detail);
  else for (const c of f.detail?.children ?? []) if (typeof c !== "string") writeNode(out, c, "");
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

/**
 * A synthetic WSDL of a given size for the generation benchmark: the FedEx rate service of the
 * corpus (one file, 270 KB, 311 schema types) repeated under new names, so that growth with size is
 * visible on real schema shapes. Copy i has its own schema namespace, its types and elements
 * renamed `C<i>…`, and its own message, port type, binding and service; every reference points
 * inside its copy.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { CORPUS_DIR } from "../scripts/corpus-dir.js";

export const SYNTHETIC_SOURCE = path.join(
  CORPUS_DIR,
  "JeremyDunn__php-fedex-api-wrapper/src/FedEx/_wsdl/RateService_v31.wsdl",
);
const NS = "http://fedex.com/ws/rate/v31";

/** The source's schema, its top-level names, and its WSDL part (messages to service). */
function parts(text: string) {
  const schema = /<xs:schema[\s\S]*<\/xs:schema>/.exec(text)![0];
  const wsdl = /<message[\s\S]*<\/service>/.exec(text)![0];
  const names = [
    ...schema.matchAll(/^ {6}<xs:(?:complexType|simpleType|element) name="([^"]+)"/gm),
  ];
  return { schema, wsdl, names: new Set(names.map((m) => m[1]!)) };
}

function copy(i: number, p: ReturnType<typeof parts>): { schema: string; wsdl: string } {
  const ns = `${NS}/c${i}`;
  const rename = (n: string) => (p.names.has(n) ? `C${i}${n}` : n);
  const schema = p.schema
    .replace(`targetNamespace="${NS}"`, `targetNamespace="${ns}" xmlns:ns="${ns}"`)
    .replace(
      /^( {6}<xs:(?:complexType|simpleType) name=")([^"]+)"/gm,
      (_m, a: string, n: string) => `${a}${rename(n)}"`,
    )
    // Every element, local ones too: wsdl-tsclient refuses more than a few dozen of one name.
    .replace(/(<xs:element name=")([^"]+)"/g, (_m, a: string, n: string) => `${a}C${i}${n}"`)
    .replace(/"ns:([^"]+)"/g, (_m, n: string) => `"ns:${rename(n)}"`);
  const wsdl = p.wsdl
    .replace(/element="ns:([^"]+)"/g, (_m, n: string) => `element="c${i}:${rename(n)}"`)
    .replace(/(<(?:message|portType|binding|service) name=")/g, `$1C${i}_`)
    .replace(/(message|type|binding)="ns:/g, `$1="ns:C${i}_`)
    .replace(/<port name="/g, `<port name="C${i}_`)
    .replace(`${NS}/getRates`, `${ns}/getRates`);
  return { schema, wsdl };
}

/** Writes a WSDL of about `bytes` bytes into `dir` and returns its path and real size. */
export function syntheticWsdl(
  dir: string,
  bytes: number,
): { file: string; bytes: number; copies: number } {
  const p = parts(readFileSync(SYNTHETIC_SOURCE, "utf8"));
  const copies = Math.max(1, Math.round(bytes / (p.schema.length + p.wsdl.length)));
  const all = Array.from({ length: copies }, (_, i) => copy(i + 1, p));
  const prefixes = all.map((_, i) => ` xmlns:c${i + 1}="${NS}/c${i + 1}"`).join("");
  const text = [
    `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:ns="${NS}" xmlns:s1="http://schemas.xmlsoap.org/wsdl/soap/"${prefixes} targetNamespace="${NS}" name="Synthetic">`,
    "  <types>",
    ...all.map((c) => `    ${c.schema}`),
    "  </types>",
    ...all.map((c) => `  ${c.wsdl}`),
    "</definitions>",
    "",
  ].join("\n");
  const file = path.join(dir, `synthetic-${Math.round(bytes / 2 ** 20)}mb.wsdl`);
  writeFileSync(file, text);
  return { file, bytes: Buffer.byteLength(text), copies };
}

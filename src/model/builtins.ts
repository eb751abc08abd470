/** The XSD (and SOAP-encoding) built-in types, and the scalar family each one converts as. */
import { NS } from "../parse/namespaces.js";
import type { BuiltinType, QName, ScalarKind } from "./model.js";

const SCALARS: Readonly<Record<string, ScalarKind>> = {
  string: "string",
  normalizedString: "string",
  token: "string",
  language: "string",
  Name: "string",
  NCName: "string",
  NMTOKEN: "string",
  NMTOKENS: "string",
  ID: "string",
  IDREF: "string",
  IDREFS: "string",
  ENTITY: "string",
  ENTITIES: "string",
  anyURI: "string",
  QName: "string",
  NOTATION: "string",
  duration: "string",
  gYear: "string",
  gYearMonth: "string",
  gMonth: "string",
  gMonthDay: "string",
  gDay: "string",
  anySimpleType: "string",
  boolean: "boolean",
  int: "int",
  short: "short",
  byte: "byte",
  unsignedInt: "unsignedInt",
  unsignedShort: "unsignedShort",
  unsignedByte: "unsignedByte",
  long: "long",
  unsignedLong: "unsignedLong",
  integer: "integer",
  nonNegativeInteger: "nonNegativeInteger",
  positiveInteger: "positiveInteger",
  nonPositiveInteger: "nonPositiveInteger",
  negativeInteger: "negativeInteger",
  decimal: "decimal",
  float: "float",
  double: "double",
  dateTime: "dateTime",
  date: "date",
  time: "time",
  base64Binary: "base64Binary",
  base64: "base64Binary",
  hexBinary: "hexBinary",
  anyType: "anyType",
};

const cache = new Map<string, BuiltinType>();

/**
 * The integer scalars whose values may exceed a JS number's safe range: they decode to `bigint`.
 */
export const BIG_INTEGER_SCALARS: ReadonlySet<ScalarKind> = new Set<ScalarKind>([
  "long",
  "unsignedLong",
  "integer",
  "nonNegativeInteger",
  "positiveInteger",
  "nonPositiveInteger",
  "negativeInteger",
]);

/** The built-in type for a QName in the XSD or SOAP-encoding namespace, or undefined. */
export function builtinType(name: QName): BuiltinType | undefined {
  if (name.ns !== NS.xsd && name.ns !== NS.soapEncoding) return undefined;
  const scalar = SCALARS[name.local];
  if (scalar === undefined) return undefined;
  const key = `${name.ns} ${name.local}`;
  let t = cache.get(key);
  if (!t) {
    t = { kind: "builtin", name: { ns: NS.xsd, local: name.local }, scalar };
    cache.set(key, t);
  }
  return t;
}

export const XS_STRING = builtinType({ ns: NS.xsd, local: "string" })!;
export const XS_ANYTYPE = builtinType({ ns: NS.xsd, local: "anyType" })!;

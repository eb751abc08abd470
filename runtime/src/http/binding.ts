/** The WSDL HTTP GET and POST bindings: typed values to and from query and form parameters. */
import type { HttpOperationDesc, HttpParamDesc } from "../descriptors/operations.js";
import { ownValue, setOwn } from "../support/own-props.js";
import { formatScalar, parseScalar, ValueFormatError } from "../scalars/scalars.js";
import { clipped } from "../support/input-text.js";

/** The name/value pairs of a request, in parameter order. */
export function encodeHttpParams(op: HttpOperationDesc, input: unknown): URLSearchParams {
  const obj = (input ?? {}) as Record<string, unknown>;
  const params = new URLSearchParams();
  for (const p of op.params) {
    const v = ownValue(obj, p.prop);
    const values = p.repeated
      ? Array.isArray(v)
        ? v
        : v === undefined || v === null
          ? []
          : [v]
      : [v];
    for (const item of values) {
      if (item === undefined || item === null) {
        // ASMX requires every parameter to be present; an absent string travels as empty.
        if (p.type.s === "string") params.append(p.name, "");
        else if (p.required) throw new ValueFormatError(`${p.prop} is required`);
        continue;
      }
      try {
        params.append(p.name, formatScalar(p.type.s, item));
      } catch (e) {
        throw new ValueFormatError(`${p.prop}: ${(e as Error).message}`);
      }
    }
  }
  return params;
}

/** Why an HTTP GET/POST request's parameters could not be read. */
export class HttpParamError extends Error {
  constructor(
    message: string,
    readonly param: string,
    readonly kind: "missing" | "invalid",
  ) {
    super(message);
    this.name = "HttpParamError";
  }
}

/**
 * Reads the typed input from request parameters. Names match case-insensitively and unknown ones
 * are ignored, as ASMX does; a parameter that is not repeated may be given once only. `parseLenient` may accept more lexical forms (e.g. ASMX date forms).
 */
export function decodeHttpParams(
  op: HttpOperationDesc,
  params: URLSearchParams,
  parseLenient?: (param: HttpParamDesc, text: string) => unknown,
): Record<string, unknown> {
  const byName = new Map<string, string[]>();
  for (const [k, v] of params) {
    const key = k.toLowerCase();
    const list = byName.get(key);
    if (list) list.push(v);
    else byName.set(key, [v]);
  }
  const out: Record<string, unknown> = {};
  for (const p of op.params) {
    const values = byName.get(p.name.toLowerCase());
    if (!values) {
      if (p.repeated) setOwn(out, p.prop, []);
      else if (p.required || p.type.s === "string")
        throw new HttpParamError(`Missing parameter: ${p.name}.`, p.name, "missing");
      continue;
    }
    const parse = (text: string): unknown => {
      try {
        const v = parseLenient ? parseLenient(p, text) : parseScalar(p.type.s, text);
        if (p.type.values && !p.type.values.includes(String(v)))
          throw new ValueFormatError(`'${clipped(text)}' is not one of the allowed values`);
        return v;
      } catch (e) {
        throw new HttpParamError(
          `Invalid value for parameter ${p.name}: ${(e as Error).message}.`,
          p.name,
          "invalid",
        );
      }
    };
    // A single parameter given twice is refused, as SOAP refuses a repeated element: taking either
    // value would let a client act on one while a proxy or log in between read the other.
    if (!p.repeated && values.length > 1)
      throw new HttpParamError(`Parameter ${p.name} occurs more than once.`, p.name, "invalid");
    setOwn(out, p.prop, p.repeated ? values.map(parse) : parse(values[0]!));
  }
  return out;
}

/** A parameter's place in an `http:urlReplacement` location: `(name)`. */
const PLACE = /\(([^()]*)\)/g;

/** The names of the parameters an `http:urlReplacement` location has a place for, in order. */
export function locationParameters(location: string): string[] {
  return [...location.matchAll(PLACE)].map((m) => m[1]!);
}

/**
 * `http:urlReplacement`: `location` with each `(name)` replaced by `value(name)`, percent-encoded.
 */
export function replaceInLocation(location: string, value: (name: string) => string): string {
  return location.replace(PLACE, (_m, name: string) => encodeURIComponent(value(name)));
}

/**
 * `http:urlReplacement`, read back: a pattern matching the URL paths `location` (after `base`)
 * stands for, and the parameter names in the order of its groups. A `(name)` matches one path
 * segment or part of one.
 */
export function locationPattern(
  base: string,
  location: string,
): { readonly pattern: RegExp; readonly names: readonly string[] } {
  const names: string[] = [];
  let source = "";
  let last = 0;
  for (const m of location.matchAll(PLACE)) {
    source += escapeRegExp(location.slice(last, m.index)) + "([^/]*)";
    names.push(m[1]!);
    last = m.index + m[0].length;
  }
  source += escapeRegExp(location.slice(last));
  return { pattern: new RegExp(`^${escapeRegExp(base)}${source}$`), names };
}

/** `s` matching itself in a regular expression. */
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

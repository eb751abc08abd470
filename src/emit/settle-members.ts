/**
 * Class and interface members, and object properties, of client.ts and server.ts laid out as Prettier
 * prints them (see settle.ts): a method or signature keeps its parameters on one line when it fits,
 * else puts each on its own line; any other line must fit as written. Undefined when not certain.
 */
import { fits, plain, split } from "./settle.js";

/** A member at indentation 2: doc lines, then `name(a: A, b: B): R {` (or `;`), then a body of lines that fit. */
export function settleMember(code: string): string | undefined {
  const parts = split(code);
  if (!parts || !parts.doc.every((l) => l.startsWith("  "))) return undefined;
  const { doc } = parts;
  const [signature, ...written] = parts.lines;
  const body = written.flatMap((l) => (fits(l) ? [l] : (longReturn(l) ?? [l])));
  if (
    signature === undefined ||
    !plain(signature) ||
    !body.every((l) => plain(l) && (fits(l) || /^    \)\) as [A-Za-z_$][\w$]*;$/.test(l)))
  )
    return undefined;
  const m = /^(  (?:async )?[A-Za-z_$][\w$]*)\(([^()]*)\)(: [^()]*?)( \{|;)$/.exec(signature);
  if (!m) return undefined;
  if (
    body.length > 0
      ? m[4] !== " {" ||
        body[body.length - 1] !== "  }" ||
        !body.slice(0, -1).every((l) => /^    /.test(l))
      : m[4] !== ";"
  )
    return undefined;
  if (fits(signature)) return [...doc, signature, ...body].join("\n");
  const params = topLevel(m[2]!, ", ");
  if (params.length !== 2 || !params.every((p) => /^[A-Za-z_$][\w$]*\??: [\w$.<>|, ]+$/.test(p)))
    return undefined;
  const close = `  )${m[3]}${m[4]}`;
  const head = [`${m[1]}(`, ...params.map((p) => `    ${p},`)];
  if (fits(close))
    return head.every(fits) ? [...doc, ...head, close, ...body].join("\n") : undefined;
  // A signature whose return type, a union, still does not fit: one member per line after `):`.
  const members = m[4] === ";" ? topLevelUnion(m[3]!.slice(2)) : undefined;
  if (!members) return undefined;
  const union = members.map((t, i) => `    | ${t}${i === members.length - 1 ? ";" : ""}`);
  const lines = [...head, "  ):", ...union];
  return lines.every(fits) ? [...doc, ...lines].join("\n") : undefined;
}

/** `text` split at each `separator` outside `<>`, `()`, `[]` and `{}`. */
function topLevel(text: string, separator: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "<" || c === "(" || c === "[" || c === "{") depth++;
    else if (c === ">" || c === ")" || c === "]" || c === "}") depth--;
    else if (depth === 0 && text.startsWith(separator, i)) {
      out.push(text.slice(start, i));
      start = i + separator.length;
      i += separator.length - 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

/** The members of a union type at its top level; undefined for one member or anything unusual. */
function topLevelUnion(type: string): string[] | undefined {
  const out = topLevel(type, " | ");
  return out.length > 1 && out.every((t) => t !== "" && !t.includes("=>")) ? out : undefined;
}

/**
 * `return (await this.#client.call("Op", input, options)) as T;` over the width: the call's arguments
 * one per line when T is a name; the type on the next line when it is a union and the rest fits.
 */
function longReturn(line: string): string[] | undefined {
  const m =
    /^    return \(await (this\.#client\.call)\(("[^"\\]*"), input, options\)\) as (.*);$/.exec(
      line,
    );
  if (!m) return undefined;
  const type = m[3]!;
  if (/^[A-Za-z_$][\w$]*$/.test(type))
    return [
      `    return (await ${m[1]}(`,
      `      ${m[2]},`,
      "      input,",
      "      options,",
      `    )) as ${type};`,
    ];
  const head = `    return (await ${m[1]}(${m[2]}, input, options)) as`;
  // (A union with null is laid out otherwise, as a name is or not: left to Prettier.)
  if (
    /^[A-Za-z_$][\w$]*( \| [A-Za-z_$][\w$]*)+$/.test(type) &&
    !type.split(" | ").includes("null") &&
    fits(head) &&
    fits(`      ${type};`)
  )
    return [head, `      ${type};`];
  return undefined;
}

/**
 * An object property on one line (with its comma) that fits as written; over the width, a handler
 * entry `Key: (input: T, context) => impl.m(input, context),` continues on the next line after `=>`.
 */
export function settleProperty(code: string): string | undefined {
  if (code.includes("\n") || !plain(code) || !/^ +[A-Za-z_$][\w$]*: .*,$/.test(code))
    return undefined;
  if (fits(code)) return code;
  const m =
    /^( +[A-Za-z_$][\w$]*: \(input: [\w$]+, context\) =>) (impl\.[A-Za-z_$][\w$]*\(input, context\),)$/.exec(
      code,
    );
  if (!m) return undefined;
  const indent = /^ */.exec(code)![0];
  const next = `${indent}  ${m[2]}`;
  return fits(m[1]!) && fits(next) ? `${m[1]}\n${next}` : undefined;
}

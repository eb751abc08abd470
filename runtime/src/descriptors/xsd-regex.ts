/**
 * XML Schema regular expressions (XSD Part 2, appendix F), read into a tree that can both make a
 * string matching the pattern (for samples: `patternSample`) and test one (`patternMatches`, so
 * that the patterns of several derivation steps can all be met). A pattern is anchored at both
 * ends; `^` and `$` are ordinary characters. A Unicode block (`\p{IsBasicLatin}`) is one of
 * XSD 1.0's (xsd-blocks.ts); another name makes the pattern read as undefined (`parsePattern`).
 */
import { BLOCKS } from "./xsd-blocks.js";

/** A set of characters, as a test of one code point. */
type CharSet = (cp: number) => boolean;

export type RegexNode =
  | { readonly k: "alt"; readonly branches: readonly RegexNode[] }
  | { readonly k: "seq"; readonly items: readonly RegexNode[] }
  | { readonly k: "rep"; readonly node: RegexNode; readonly min: number; readonly max: number }
  | { readonly k: "set"; readonly test: CharSet };

/** Repetitions past the least a quantifier asks for, at most, where the pattern leaves it open. */
const OPEN_REPEAT = 16;

const range =
  (lo: number, hi: number): CharSet =>
  (cp) =>
    cp >= lo && cp <= hi;
const anyOf =
  (...sets: CharSet[]): CharSet =>
  (cp) =>
    sets.some((s) => s(cp));
const not =
  (s: CharSet): CharSet =>
  (cp) =>
    !s(cp);
const category = (name: string): CharSet => {
  const re = new RegExp(`^\\p{${name}}$`, "u");
  return (cp) => re.test(String.fromCodePoint(cp));
};

/** XML 1.0 (fifth edition) NameStartChar, which `\i` stands for, and NameChar (`\c`). */
const NAME_START = anyOf(
  (cp) => cp === 0x3a || cp === 0x5f,
  range(0x41, 0x5a),
  range(0x61, 0x7a),
  range(0xc0, 0xd6),
  range(0xd8, 0xf6),
  range(0xf8, 0x2ff),
  range(0x370, 0x37d),
  range(0x37f, 0x1fff),
  range(0x200c, 0x200d),
  range(0x2070, 0x218f),
  range(0x2c00, 0x2fef),
  range(0x3001, 0xd7ff),
  range(0xf900, 0xfdcf),
  range(0xfdf0, 0xfffd),
);
const NAME_CHAR = anyOf(
  NAME_START,
  (cp) => cp === 0x2d || cp === 0x2e || cp === 0xb7,
  range(0x30, 0x39),
  range(0x300, 0x36f),
  range(0x203f, 0x2040),
);
const SPACE: CharSet = (cp) => cp === 0x20 || cp === 0x9 || cp === 0xa || cp === 0xd;
const DIGIT = category("Nd");
const WORD = not(anyOf(category("P"), category("Z"), category("C")));

const MULTI: Readonly<Record<string, CharSet>> = {
  s: SPACE,
  S: not(SPACE),
  i: NAME_START,
  I: not(NAME_START),
  c: NAME_CHAR,
  C: not(NAME_CHAR),
  d: DIGIT,
  D: not(DIGIT),
  w: WORD,
  W: not(WORD),
};
const SINGLE: Readonly<Record<string, number>> = { n: 0xa, r: 0xd, t: 0x9 };

class PatternSyntax extends Error {}

/** Reads one pattern; undefined when it is not one this reader knows. */
export function parsePattern(pattern: string): RegexNode | undefined {
  try {
    const p = new Parser([...pattern]);
    const node = p.alt();
    if (p.pos !== p.chars.length) throw new PatternSyntax("unbalanced )");
    return node;
  } catch (e) {
    if (e instanceof PatternSyntax || e instanceof SyntaxError) return undefined;
    throw e;
  }
}

class Parser {
  pos = 0;
  constructor(readonly chars: readonly string[]) {}
  private peek = (): string | undefined => this.chars[this.pos];
  private next(): string {
    const c = this.chars[this.pos++];
    if (c === undefined) throw new PatternSyntax("unexpected end");
    return c;
  }

  alt(): RegexNode {
    const branches = [this.seq()];
    while (this.peek() === "|") {
      this.pos++;
      branches.push(this.seq());
    }
    return branches.length === 1 ? branches[0]! : { k: "alt", branches };
  }

  private seq(): RegexNode {
    const items: RegexNode[] = [];
    for (let c = this.peek(); c !== undefined && c !== "|" && c !== ")"; c = this.peek())
      items.push(this.quantified(this.atom()));
    return items.length === 1 ? items[0]! : { k: "seq", items };
  }

  private atom(): RegexNode {
    const c = this.next();
    if (c === "(") {
      const inner = this.alt();
      if (this.next() !== ")") throw new PatternSyntax("unclosed (");
      return inner;
    }
    if (c === "[") return { k: "set", test: this.classBody() };
    if (c === ".") return { k: "set", test: (cp) => cp !== 0xa && cp !== 0xd };
    if (c === "\\") return { k: "set", test: this.escape() };
    if ("?*+{}".includes(c)) throw new PatternSyntax(`a quantifier with nothing before it`);
    const cp = c.codePointAt(0)!;
    return { k: "set", test: (x) => x === cp };
  }

  private quantified(node: RegexNode): RegexNode {
    const c = this.peek();
    if (c === "?") return this.skip({ k: "rep", node, min: 0, max: 1 });
    if (c === "*") return this.skip({ k: "rep", node, min: 0, max: Infinity });
    if (c === "+") return this.skip({ k: "rep", node, min: 1, max: Infinity });
    if (c !== "{") return node;
    this.pos++;
    let text = "";
    for (let d = this.next(); d !== "}"; d = this.next()) text += d;
    const m = /^(\d+)(,(\d*))?$/.exec(text);
    if (!m) throw new PatternSyntax(`a bad quantifier {${text}}`);
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
    if (max < min) throw new PatternSyntax("a quantifier whose max is below its min");
    return this.quantified({ k: "rep", node, min, max });
  }

  private skip(node: RegexNode): RegexNode {
    this.pos++;
    return node;
  }

  /** A backslash escape: a character, a multi-character escape or a category. */
  private escape(): CharSet {
    const c = this.next();
    if (c in MULTI) return MULTI[c]!;
    if (c in SINGLE) return (cp) => cp === SINGLE[c];
    if (c === "p" || c === "P") {
      if (this.next() !== "{") throw new PatternSyntax("\\p without {");
      let name = "";
      for (let d = this.next(); d !== "}"; d = this.next()) name += d;
      const set = categoryOrBlock(name);
      return c === "p" ? set : not(set);
    }
    if (/[A-Za-z0-9]/.test(c)) throw new PatternSyntax(`an unknown escape \\${c}`);
    const cp = c.codePointAt(0)!;
    return (x) => x === cp;
  }

  /** After `[`: a class, possibly negated, possibly with a subtraction (`[a-z-[aeiou]]`). */
  private classBody(): CharSet {
    const negated = this.peek() === "^";
    if (negated) this.pos++;
    const parts: CharSet[] = [];
    let minus: CharSet | undefined;
    for (let first = true; ; first = false) {
      const c = this.next();
      if (c === "]" && !first) break;
      if (c === "-" && this.peek() === "[") {
        this.pos++;
        minus = this.classBody();
        if (this.next() !== "]") throw new PatternSyntax("a subtraction not last in its class");
        break;
      }
      const lo = c === "\\" ? this.escape() : c.codePointAt(0)!;
      if (typeof lo === "function") {
        parts.push(lo);
        continue;
      }
      if (
        this.peek() === "-" &&
        this.chars[this.pos + 1] !== "]" &&
        this.chars[this.pos + 1] !== "["
      ) {
        this.pos++;
        const h = this.next();
        const hi = h === "\\" ? this.escape() : h.codePointAt(0)!;
        if (typeof hi === "function") throw new PatternSyntax("a range ending in a class");
        parts.push(range(lo, hi));
      } else parts.push((x) => x === lo);
    }
    const base = negated ? not(anyOf(...parts)) : anyOf(...parts);
    return minus ? (cp) => base(cp) && !minus(cp) : base;
  }
}

function categoryOrBlock(name: string): CharSet {
  if (name.startsWith("Is")) {
    const block = Object.hasOwn(BLOCKS, name.slice(2)) ? BLOCKS[name.slice(2)] : undefined;
    if (!block) throw new PatternSyntax(`an unknown block ${name}`);
    return anyOf(...block.map(([lo, hi]) => range(lo, hi)));
  }
  return category(name);
}

/** The least and most characters a node matches (the most capped for open quantifiers). */
export function lengths(n: RegexNode): readonly [number, number] {
  switch (n.k) {
    case "set":
      return [1, 1];
    case "seq":
      return n.items.map(lengths).reduce(([a, b], [c, d]) => [a + c, b + d], [0, 0]);
    case "alt": {
      const all = n.branches.map(lengths);
      return [Math.min(...all.map((l) => l[0])), Math.max(...all.map((l) => l[1]))];
    }
    case "rep": {
      const [a, b] = lengths(n.node);
      return [a * n.min, b * Math.min(n.max, n.min + OPEN_REPEAT)];
    }
  }
}

/** The characters a sample prefers, in order: readable ones first. */
const PREFERRED = [..."aAbBcC0123456789xyzXYZdefghijklmnopqrstuvwDEFGHIJKLMNOPQRSTUVW-_. "].map(
  (c) => c.codePointAt(0)!,
);

/**
 * A character of `set`: a preferred one (the `pick`-th that fits), else the first XML character,
 * in the supplementary planes last (`\p{IsGothic}` has none below them).
 */
function charOf(set: CharSet, pick: number): string | undefined {
  const fits = PREFERRED.filter(set);
  if (fits.length > 0) return String.fromCodePoint(fits[pick % fits.length]!);
  for (let cp = 0x20; cp <= 0x10ffff; cp++)
    if ((cp < 0xd800 || (cp > 0xdfff && cp !== 0xfffe && cp !== 0xffff)) && set(cp))
      return String.fromCodePoint(cp);
  return undefined;
}

/** A source of choices: 0 always (deterministic), or a seeded sequence. */
export type Choose = (n: number) => number;

/**
 * A string the node matches, as near `target` characters long as it can; undefined when a
 * character class is empty.
 */
export function generate(n: RegexNode, target: number, choose: Choose): string | undefined {
  switch (n.k) {
    case "set":
      return charOf(n.test, choose(PREFERRED.length));
    case "alt": {
      const fit = n.branches.filter((b) => {
        const [lo, hi] = lengths(b);
        return target >= lo && target <= hi;
      });
      const pool = fit.length > 0 ? fit : n.branches;
      return generate(pool[choose(pool.length)]!, target, choose);
    }
    case "seq":
      return generateSeq(n.items, target, choose);
    case "rep":
      return generateRep(n, target, choose);
  }
}

function generateSeq(items: readonly RegexNode[], target: number, choose: Choose) {
  const ls = items.map(lengths);
  let extra = target - ls.reduce((s, l) => s + l[0], 0);
  let out = "";
  for (const [i, item] of items.entries()) {
    const [lo, hi] = ls[i]!;
    const give = Math.max(0, Math.min(extra, hi - lo));
    extra -= give;
    const s = generate(item, lo + give, choose);
    if (s === undefined) return undefined;
    out += s;
  }
  return out;
}

function generateRep(n: RegexNode & { k: "rep" }, target: number, choose: Choose) {
  const [lo, hi] = lengths(n.node);
  const cap = Math.min(n.max, n.min + OPEN_REPEAT);
  // As many repetitions as reach the target, within the quantifier's bounds.
  let count = hi === 0 ? n.min : Math.ceil(target / hi);
  if (lo > 0) count = Math.min(count, Math.floor(target / lo));
  count = Math.max(n.min, Math.min(cap, count));
  let left = target;
  let out = "";
  for (let i = 0; i < count; i++) {
    const share = Math.max(lo, Math.min(hi, left - lo * (count - i - 1)));
    const s = generate(n.node, share, choose);
    if (s === undefined) return undefined;
    out += s;
    left -= [...s].length;
  }
  return out;
}

/** Whether the node matches all of `chars` (backtracking over every way it can). */
export function patternMatches(n: RegexNode, text: string): boolean {
  const chars = [...text].map((c) => c.codePointAt(0)!);
  return ends(n, chars, 0).has(chars.length);
}

/** The positions a match of `n` starting at `at` can end at. */
function ends(n: RegexNode, chars: readonly number[], at: number): Set<number> {
  switch (n.k) {
    case "set":
      return new Set(at < chars.length && n.test(chars[at]!) ? [at + 1] : []);
    case "alt":
      return new Set(n.branches.flatMap((b) => [...ends(b, chars, at)]));
    case "seq": {
      let here = new Set([at]);
      for (const item of n.items)
        here = new Set([...here].flatMap((p) => [...ends(item, chars, p)]));
      return here;
    }
    case "rep": {
      const out = new Set<number>(n.min === 0 ? [at] : []);
      let here = new Set([at]);
      for (let i = 1; i <= n.max && here.size > 0 && i <= chars.length + n.min; i++) {
        const next = new Set([...here].flatMap((p) => [...ends(n.node, chars, p)]));
        // A repetition that consumed nothing cannot lead anywhere new.
        here = new Set([...next].filter((p) => i <= n.min || !here.has(p)));
        if (i >= n.min) for (const p of next) out.add(p);
      }
      return out;
    }
  }
}

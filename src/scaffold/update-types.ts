/**
 * What changed inside the generated types between the SDK on disk and the one `update` is about to
 * write: a field renamed, added, removed or retyped keeps a method's signature text the same, so
 * it is found here, type by type, and reported at each method that reaches the type.
 */
import { ts } from "ts-morph";
import { tokens } from "./update-run.js";

/** A declared type as compared: its members' texts by name, or the whole alias's text. */
type Shape = ReadonlyMap<string, string>;

interface Declared {
  readonly shape: Shape;
  /** The declared types its text names. */
  readonly uses: readonly string[];
}

/** The comparable text of a node: its tokens, comments and layout left out. */
const nodeTokens = (node: ts.Node, sf: ts.SourceFile): string => tokens(node.getText(sf));

/** The names of the type references inside `node`. */
function referenced(node: ts.Node): string[] {
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isTypeReferenceNode(n)) out.push(n.typeName.getText());
    ts.forEachChild(n, visit);
  };
  visit(node);
  return out;
}

function memberShape(members: ts.NodeArray<ts.TypeElement>, sf: ts.SourceFile): Shape {
  const shape = new Map<string, string>();
  for (const m of members) {
    const name = m.name?.getText(sf) ?? nodeTokens(m, sf);
    // A property as `?: T` or `: T`, so that a change reads "x now ?: string".
    const text =
      ts.isPropertySignature(m) && m.type
        ? `${m.questionToken ? "?" : ""}: ${nodeTokens(m.type, sf)}`
        : nodeTokens(m, sf);
    shape.set(name, text);
  }
  return shape;
}

/** The interfaces and type aliases a generated types file declares. */
function declared(text: string): Map<string, Declared> {
  const sf = ts.createSourceFile("types.ts", text, ts.ScriptTarget.Latest, true);
  const out = new Map<string, Declared>();
  for (const s of sf.statements) {
    if (ts.isInterfaceDeclaration(s)) {
      const heritage = (s.heritageClauses ?? []).map((h) => nodeTokens(h, sf));
      const shape = new Map(memberShape(s.members, sf));
      if (heritage.length) shape.set("extends", heritage.join(" "));
      out.set(s.name.text, { shape, uses: referenced(s) });
    } else if (ts.isTypeAliasDeclaration(s)) {
      const shape = ts.isTypeLiteralNode(s.type)
        ? memberShape(s.type.members, sf)
        : new Map([["=", nodeTokens(s.type, sf)]]);
      out.set(s.name.text, { shape, uses: referenced(s.type) });
    }
  }
  return out;
}

/** "x now x?: string", "extends now extends B", or for an alias "now string". */
function changed(name: string, next: string): string {
  if (name === "=") return `now ${next}`;
  return `${name} now ${/^\??:/.test(next) ? name + next : next}`;
}

/** How `was` became `now`, in short phrases; empty when they are the same. */
function shapeChanges(was: Shape, now: Shape): string[] {
  const out: string[] = [];
  for (const [name, text] of was) {
    const next = now.get(name);
    if (next === undefined) out.push(`${name} removed`);
    else if (next !== text) out.push(changed(name, next));
  }
  for (const name of now.keys()) if (!was.has(name)) out.push(`${name} added`);
  return out;
}

/** The types changed from `was` to `now`, each with what changed in it. */
function changedTypes(
  was: Map<string, Declared>,
  now: Map<string, Declared>,
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [name, d] of now) {
    const before = was.get(name);
    const changes = before ? shapeChanges(before.shape, d.shape) : [];
    if (changes.length) out.set(name, changes);
  }
  return out;
}

/**
 * For the SDK going from `oldText` to `newText` (types.ts), a function giving, for a method whose
 * signature names `roots`, what changed in the types it reaches: one line per changed type.
 */
export function typeChangeReporter(
  oldText: string,
  newText: string,
  limit = 4,
): (roots: readonly string[]) => string[] {
  const now = declared(newText);
  const changed = changedTypes(declared(oldText), now);
  return (roots) => {
    const seen = new Set<string>();
    const queue = [...roots];
    for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
      const d = now.get(name);
      if (seen.has(name) || !d) continue;
      seen.add(name);
      queue.push(...d.uses);
    }
    return [...seen].sort().flatMap((name) => {
      const c = changed.get(name);
      if (!c) return [];
      const more = c.length > limit ? `; and ${c.length - limit} more` : "";
      return [`${name}: ${c.slice(0, limit).join("; ")}${more}`];
    });
  };
}

/** The identifiers a type text as the template writes it names (`GetMessages | undefined`). */
export function typeNames(typeText: string): string[] {
  return typeText.match(/[A-Za-z_$][\w$]*/g) ?? [];
}

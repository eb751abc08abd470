/**
 * The imports the methods `scaffold --update` adds need: into the file's import of the same module
 * where there is one (sorted in if it is sorted, in its layout), else as a new import after the
 * last. A name the file already binds to something else is left to the user, with a warning.
 */
import { Node, type ImportDeclaration, type SourceFile } from "ts-morph";
import { insert, insertAfter, warn, type ImportSpec, type Run } from "./update-run.js";

/** A name the file already binds at its top level, and, for an import, where from and how. */
interface Binding {
  readonly node: Node;
  readonly from?: string;
  /** The imported name, for a named import (`X` of `import { X as Y }`). */
  readonly imported?: string;
  readonly typeOnly: boolean;
}

function importBindings(decl: ImportDeclaration, names: Map<string, Binding>): void {
  const from = decl.getModuleSpecifierValue();
  const declTypeOnly = decl.isTypeOnly();
  const def = decl.getDefaultImport();
  if (def) names.set(def.getText(), { node: def, from, typeOnly: declTypeOnly });
  const ns = decl.getNamespaceImport();
  if (ns) names.set(ns.getText(), { node: ns, from, typeOnly: declTypeOnly });
  for (const spec of decl.getNamedImports()) {
    const local = spec.getAliasNode() ?? spec.getNameNode();
    const typeOnly = declTypeOnly || spec.isTypeOnly();
    names.set(local.getText(), { node: local, from, imported: spec.getName(), typeOnly });
  }
}

/** Every name the file binds at its top level: imports and declarations alike. */
function topLevelBindings(sf: SourceFile): Map<string, Binding> {
  const names = new Map<string, Binding>();
  for (const decl of sf.getImportDeclarations()) importBindings(decl, names);
  const declared = [
    ...sf.getFunctions(),
    ...sf.getClasses(),
    ...sf.getInterfaces(),
    ...sf.getTypeAliases(),
    ...sf.getEnums(),
    ...sf.getModules(),
    ...sf.getVariableDeclarations(),
  ];
  for (const d of declared) {
    const name = d.getNameNode();
    if (name && Node.isIdentifier(name)) names.set(name.getText(), { node: name, typeOnly: false });
  }
  return names;
}

/** The needs, one per name and module; a name any method needs as a value is a value import. */
function mergeNeeds(needs: readonly ImportSpec[]): ImportSpec[] {
  const merged = new Map<string, ImportSpec>();
  for (const n of needs) {
    const key = `${n.from}\u0000${n.name}`;
    const seen = merged.get(key);
    merged.set(key, { ...n, typeOnly: n.typeOnly && (seen?.typeOnly ?? true) });
  }
  return [...merged.values()];
}

/**
 * Imports what the added methods use and the file does not import yet: into an import of the
 * same module where one can take it, else in a new import after the last one. A name the file
 * already binds otherwise is not imported (that would not compile) but reported.
 */
export function addImports(run: Run, needs: readonly ImportSpec[]): void {
  const bindings = topLevelBindings(run.sf);
  const into = new Map<ImportDeclaration, ImportSpec[]>();
  const fresh = new Map<string, ImportSpec[]>();
  for (const need of mergeNeeds(needs)) {
    const bound = bindings.get(need.name);
    if (bound) {
      if (!satisfies(bound, need)) reportTaken(run, need, bound);
      continue;
    }
    const decl = importTarget(run.sf, need);
    if (decl) into.set(decl, [...(into.get(decl) ?? []), need]);
    else {
      const key = `${need.typeOnly ? "type" : "value"}\u0000${need.from}`;
      fresh.set(key, [...(fresh.get(key) ?? []), need]);
    }
    run.changes.push(`imported ${need.name}`);
  }
  for (const [decl, added] of into) extendImport(run, decl, added);
  if (fresh.size > 0) addImportDeclarations(run, [...fresh.values()]);
}

function satisfies(bound: Binding, need: ImportSpec): boolean {
  return (
    bound.from === need.from && bound.imported === need.name && (need.typeOnly || !bound.typeOnly)
  );
}

function reportTaken(run: Run, need: ImportSpec, bound: Binding): void {
  const message =
    `the added methods use ${need.name}${need.typeOnly ? " (a type)" : ""} from "${need.from}", ` +
    `but this file already declares ${need.name} here; import it yourself under a name that fits`;
  warn(run, "SCAFFOLD_IMPORT_CONFLICT", message, bound.node.getStart());
}

/**
 * The import of `need.from` that can take the name: a type-only import for a type (or else a value
 * import, as `type X`), a value import for a value. Only imports with named bindings can.
 */
function importTarget(sf: SourceFile, need: ImportSpec): ImportDeclaration | undefined {
  const candidates = sf
    .getImportDeclarations()
    .filter((d) => d.getModuleSpecifierValue() === need.from && d.getNamedImports().length > 0);
  if (need.typeOnly) return candidates.find((d) => d.isTypeOnly()) ?? candidates[0];
  return candidates.find((d) => !d.isTypeOnly());
}

const ORDERS: readonly ((a: string, b: string) => number)[] = [
  (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  (a, b) => {
    const [x, y] = [a.toLowerCase(), b.toLowerCase()];
    return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
  },
];

/**
 * Adds names to an import's braces in its own layout: sorted in, if its names were sorted (by
 * code point or case-insensitively), else at the end; on lines of their own if it has them.
 */
function extendImport(run: Run, decl: ImportDeclaration, added: readonly ImportSpec[]): void {
  const elements = decl.getNamedImports();
  const names = elements.map((e) => e.getName());
  const order = ORDERS.find((cmp) => names.every((n, i) => i === 0 || cmp(names[i - 1]!, n) <= 0));
  const sorted = order ? [...added].sort((a, b) => order(a.name, b.name)) : added;
  // On lines of their own when the first name is (Prettier's layout past 100 columns).
  const braces = decl.getImportClauseOrThrow().getNamedBindingsOrThrow();
  const multiline = run.text.slice(braces.getStart(), elements[0]!.getStart()).includes("\n");
  const sep = multiline ? `\n${indentOf(run.text, elements[0]!.getStart())}` : " ";
  const at = new Map<number, string[]>();
  for (const need of sorted) {
    const index = order ? names.filter((n) => order(n, need.name) <= 0).length : names.length;
    const text = need.typeOnly && !decl.isTypeOnly() ? `type ${need.name}` : need.name;
    at.set(index, [...(at.get(index) ?? []), text]);
  }
  for (const [index, texts] of at) {
    if (index > 0) insertAfter(run, elements[index - 1]!, texts, sep);
    else insert(run, elements[0]!.getStart(), texts.map((t) => `${t},${sep}`).join(""));
  }
}

/** The white space before `pos` on its line ("  " when code precedes it there). */
function indentOf(text: string, pos: number): string {
  const lead = text.slice(text.lastIndexOf("\n", pos - 1) + 1, pos);
  return /^[ \t]*$/.test(lead) ? lead : "  ";
}

/**
 * New imports after the last import (at the start without one), in the file's quotes and
 * semicolons.
 */
function addImportDeclarations(run: Run, groups: readonly (readonly ImportSpec[])[]): void {
  const last = run.sf.getImportDeclarations().at(-1);
  const quote = last?.getModuleSpecifier().getText().charAt(0) ?? '"';
  const semi = last ? (last.getText().endsWith(";") ? ";" : "") : ";";
  const lines = groups.map((group) => {
    const names = group.map((n) => n.name).sort(ORDERS[0]);
    const head = group[0]!.typeOnly ? "import type" : "import";
    const tail = ` from ${quote}${group[0]!.from}${quote}${semi}`;
    const line = `${head} { ${names.join(", ")} }${tail}`;
    // Prettier's layout at 100 columns, as the template's own imports are.
    return line.length <= 100
      ? line
      : `${head} {\n${names.map((n) => `  ${n},\n`).join("")}}${tail}`;
  });
  if (last) insert(run, last.getEnd(), lines.map((l) => `\n${l}`).join(""));
  else insert(run, run.sf.getStatements()[0]?.getStart(true) ?? 0, lines.join("\n") + "\n\n");
}

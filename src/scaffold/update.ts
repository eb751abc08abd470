/**
 * The editing half of `wsdl-tsgen scaffold --update`: brings a scaffolded project's src/service.ts
 * up to date with the WSDL. It adds the methods of new operations (and the imports they need) and
 * says, as diagnostics, what it will not touch: methods of removed operations, and methods whose
 * input or output type changed.
 *
 * The file is the user's, so it is never reprinted: ts-morph only finds positions, and every change
 * is a text insertion into the original string. Every byte outside the inserted ranges stays as it
 * was. This is the only module that imports ts-morph (the CLI loads it by dynamic import for
 * `--update` alone), so that `generate` does not load a TypeScript compiler it does not need.
 */
import {
  Node,
  Project,
  ts,
  type ImportDeclaration,
  type ObjectLiteralElementLike,
  type ObjectLiteralExpression,
  type SourceFile,
  type TypeNode,
} from "ts-morph";
import { diagnostic, type Diagnostic, type DiagnosticCode } from "../diagnostics.js";

export interface MethodSpec {
  /** The property name in the object literal. */
  readonly method: string;
  /** The WSDL operation name, for messages. */
  readonly operation: string;
  /** The first parameter's type as the template writes it, e.g. "GetMessages". */
  readonly inputType: string;
  /** The result type inside Promise<…>, e.g. "ArrayOfMessagesInput | undefined" or "void". */
  readonly outputType: string;
  /**
   * The whole method as the template renders it, its doc comment included, without trailing
   * comma, indented as a member of the object (2 spaces).
   */
  readonly text: string;
  /** Names `text` needs imported: type-only or value, and from which module. */
  readonly imports: readonly ImportSpec[];
}

export interface ImportSpec {
  readonly name: string;
  readonly from: string;
  readonly typeOnly: boolean;
}

export interface ServiceSpec {
  /** The exported implementation object, e.g. "apiService". */
  readonly objectName: string;
  /** The WSDL service, for messages. */
  readonly serviceName: string;
  /** In WSDL order. */
  readonly methods: readonly MethodSpec[];
}

export interface UpdateResult {
  /** The new file text (=== the input when nothing changes). */
  readonly text: string;
  /** One line per change, e.g. "added getMessages (GetMessages)", "imported GetMessages". */
  readonly changes: readonly string[];
  /** Located in `file`, 1-based line and column. */
  readonly diagnostics: readonly Diagnostic[];
}

/** A text insertion into the original string; `seq` keeps insertions at one position in order. */
interface Edit {
  readonly pos: number;
  readonly text: string;
  readonly seq: number;
}

/** What one run collects while it walks the file. */
interface Run {
  readonly text: string;
  readonly file: string;
  readonly sf: SourceFile;
  /** The file's line break, so that inserted lines match a CRLF file. */
  readonly eol: string;
  readonly edits: Edit[];
  readonly changes: string[];
  readonly diagnostics: Diagnostic[];
}

export function updateService(
  text: string,
  file: string,
  services: readonly ServiceSpec[],
): UpdateResult {
  const project = new Project({ useInMemoryFileSystem: true });
  const sf = project.createSourceFile("/service.ts", text);
  const run: Run = {
    text,
    file,
    sf,
    eol: text.includes("\r\n") ? "\r\n" : "\n",
    edits: [],
    changes: [],
    diagnostics: [],
  };
  const imports: ImportSpec[] = [];
  for (const service of services) imports.push(...updateObject(run, service));
  addImports(run, imports);
  return { text: applyEdits(text, run.edits), changes: run.changes, diagnostics: run.diagnostics };
}

/** Applies the insertions back to front, so that each position still means the original's. */
function applyEdits(text: string, edits: readonly Edit[]): string {
  let out = text;
  const sorted = [...edits].sort((a, b) => b.pos - a.pos || b.seq - a.seq);
  for (const e of sorted) out = out.slice(0, e.pos) + e.text + out.slice(e.pos);
  return out;
}

function insert(run: Run, pos: number, text: string): void {
  run.edits.push({ pos, text: text.replace(/\r?\n/g, run.eol), seq: run.edits.length });
}

function warn(run: Run, code: DiagnosticCode, message: string, pos: number): void {
  const { line, column } = run.sf.getLineAndColumnAtPos(pos);
  run.diagnostics.push(diagnostic(code, message, { file: run.file, line, column }, "warning"));
}

/** Checks and completes one service object; returns the imports the added methods need. */
function updateObject(run: Run, service: ServiceSpec): ImportSpec[] {
  const object = findObject(run.sf, service.objectName);
  if (!object) {
    const message =
      `service ${service.serviceName}: expected \`export const ${service.objectName} = { … }\` ` +
      `(an object literal) in this file; its methods were neither checked nor added`;
    run.diagnostics.push(diagnostic("SCAFFOLD_SERVICE_MISSING", message, at11(run.file)));
    return [];
  }
  const present = new Map<string, ObjectLiteralElementLike>();
  for (const member of object.getProperties()) {
    const name = memberName(member);
    if (name === undefined) continue;
    present.set(name, member);
    const spec = service.methods.find((m) => m.method === name);
    if (spec) checkSignature(run, service, spec, member);
    else reportRemoved(run, service, name, member);
  }
  return addMethods(run, service, object, present);
}

function at11(file: string) {
  return { file, line: 1, column: 1 };
}

/**
 * The object literal `name` is initialized with, seen through the ways a user may type it:
 * `satisfies`, `as`, `<T>`, `!` and parentheses (a type annotation is on the declaration itself).
 */
function findObject(sf: SourceFile, name: string): ObjectLiteralExpression | undefined {
  let node = sf.getVariableDeclaration(name)?.getInitializer();
  while (node) {
    if (Node.isObjectLiteralExpression(node)) return node;
    if (
      Node.isSatisfiesExpression(node) ||
      Node.isAsExpression(node) ||
      Node.isTypeAssertion(node) ||
      Node.isNonNullExpression(node) ||
      Node.isParenthesizedExpression(node)
    )
      node = node.getExpression();
    else return undefined;
  }
  return undefined;
}

/** A member's property name as the object has it at run time; undefined for spreads and `[expr]`. */
function memberName(member: ObjectLiteralElementLike): string | undefined {
  if (Node.isSpreadAssignment(member)) return undefined;
  const name = member.getNameNode();
  if (Node.isIdentifier(name) || Node.isNumericLiteral(name)) return name.getText();
  if (Node.isStringLiteral(name) || Node.isNoSubstitutionTemplateLiteral(name))
    return name.getLiteralText();
  return undefined;
}

function reportRemoved(
  run: Run,
  service: ServiceSpec,
  name: string,
  member: ObjectLiteralElementLike,
): void {
  const message =
    `method ${name} of ${service.objectName}: no operation of service ${service.serviceName} in ` +
    "the WSDL has this method any more (it was removed or renamed); remove the method, or keep " +
    "it as a helper outside the object";
  // The name node, where tsc reports the excess property of `satisfies ApiService`.
  warn(run, "SCAFFOLD_OPERATION_REMOVED", message, namePos(member));
}

function namePos(member: ObjectLiteralElementLike): number {
  return Node.isSpreadAssignment(member) ? member.getStart() : member.getNameNode().getStart();
}

/** A function-valued member: a method, or a property assigned an arrow or function expression. */
function functionOf(member: ObjectLiteralElementLike) {
  if (Node.isMethodDeclaration(member)) return member;
  if (!Node.isPropertyAssignment(member)) return undefined;
  let node = member.getInitializer();
  while (node && (Node.isParenthesizedExpression(node) || Node.isSatisfiesExpression(node)))
    node = node.getExpression();
  return Node.isArrowFunction(node) || Node.isFunctionExpression(node) ? node : undefined;
}

/**
 * Compares the types the user wrote with the spec's. Unannotated ones are left to the compiler,
 * which types them from the service interface; a method is never edited, only reported.
 */
function checkSignature(
  run: Run,
  service: ServiceSpec,
  spec: MethodSpec,
  member: ObjectLiteralElementLike,
): void {
  const fn = functionOf(member);
  if (!fn) return;
  const first = fn.getParameters().find((p) => p.getName() !== "this");
  const input = first?.getTypeNode();
  if (input) compareType(run, service, spec, "input", input, spec.inputType);
  const output = fn.getReturnTypeNode();
  if (output) compareType(run, service, spec, "output", promised(output), spec.outputType);
}

/** `T` of `Promise<T>`, or the type itself (a method may return its result synchronously). */
function promised(node: TypeNode): TypeNode {
  if (!Node.isTypeReference(node) || node.getTypeName().getText() !== "Promise") return node;
  const args = node.getTypeArguments();
  return args.length === 1 ? args[0]! : node;
}

function compareType(
  run: Run,
  service: ServiceSpec,
  spec: MethodSpec,
  which: "input" | "output",
  written: TypeNode,
  expected: string,
): void {
  if (typeKey(written.compilerNode, run.sf.compilerNode) === specTypeKey(expected)) return;
  const was = written.getText().replace(/\s+/g, " ");
  const message =
    `method ${spec.method} of ${service.objectName}: its ${which} type is now ${expected} ` +
    `(was ${was}); the method was kept as written`;
  warn(run, "SCAFFOLD_SIGNATURE_CHANGED", message, written.getStart());
}

/**
 * A type's text for comparison: its tokens without white space or comments, and a union's members
 * (through parentheses) sorted, so that `undefined | A` and `A | undefined` are the same type.
 */
function typeKey(node: ts.TypeNode, sf: ts.SourceFile): string {
  return [...new Set(unionMembers(node, sf))].sort().join(" | ");
}

function unionMembers(node: ts.TypeNode, sf: ts.SourceFile): string[] {
  if (ts.isParenthesizedTypeNode(node)) return unionMembers(node.type, sf);
  if (ts.isUnionTypeNode(node)) return node.types.flatMap((t) => unionMembers(t, sf));
  return [tokens(node.getText(sf))];
}

function specTypeKey(type: string): string {
  const sf = ts.createSourceFile("spec.ts", `type T = ${type};`, ts.ScriptTarget.Latest);
  const statement = sf.statements[0];
  if (!statement || !ts.isTypeAliasDeclaration(statement)) return tokens(type);
  return typeKey(statement.type, sf);
}

function tokens(text: string): string {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const out: string[] = [];
  while (scanner.scan() !== ts.SyntaxKind.EndOfFileToken) out.push(scanner.getTokenText());
  return out.join(" ");
}

/** The next token at or after `pos`, past white space and comments. */
function nextToken(text: string, pos: number): { kind: ts.SyntaxKind; end: number } {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  scanner.resetTokenState(pos);
  const kind = scanner.scan();
  return { kind, end: scanner.getTokenEnd() };
}

/** `pos`, or past the comments that follow it on its line: they belong to what precedes them. */
function lineEnd(text: string, pos: number): number {
  const comments = ts.getTrailingCommentRanges(text, pos);
  return comments?.length ? comments[comments.length - 1]!.end : pos;
}

/**
 * Inserts `items` into a comma-separated list after `node`, each preceded by `sep`. They go past
 * the comma that follows `node` and past any comment on its line, so that such a comment stays
 * with the item it was written for; a last item without a comma gets one.
 */
function insertAfter(run: Run, node: Node, items: readonly string[], sep: string): void {
  const next = nextToken(run.text, node.getEnd());
  if (next.kind === ts.SyntaxKind.CommaToken) {
    insert(run, lineEnd(run.text, next.end), items.map((t) => `${sep}${t},`).join(""));
  } else {
    insert(run, node.getEnd(), ",");
    insert(run, lineEnd(run.text, node.getEnd()), items.map((t) => sep + t).join(","));
  }
}

/** Whether the object's members are separated by blank lines (the template's layout, so the default). */
function usesBlankLines(text: string, members: readonly Node[]): boolean {
  if (members.length < 2) return true;
  return members
    .slice(1)
    .some((m, i) => /\n[ \t]*\r?\n/.test(text.slice(members[i]!.getEnd(), m.getStart())));
}

/**
 * Adds the spec's methods the object lacks, each after the nearest method before it in WSDL order
 * (first in the object when none is there), and returns the imports they need.
 */
function addMethods(
  run: Run,
  service: ServiceSpec,
  object: ObjectLiteralExpression,
  present: ReadonlyMap<string, ObjectLiteralElementLike>,
): ImportSpec[] {
  const groups = new Map<ObjectLiteralElementLike | undefined, string[]>();
  const imports: ImportSpec[] = [];
  let anchor: ObjectLiteralElementLike | undefined;
  for (const spec of service.methods) {
    const member = present.get(spec.method);
    if (member) {
      anchor = member;
      continue;
    }
    groups.set(anchor, [...(groups.get(anchor) ?? []), spec.text]);
    run.changes.push(`added ${spec.method} (${spec.operation})`);
    imports.push(...spec.imports);
  }
  const members = object.getProperties();
  const sep = usesBlankLines(run.text, members) ? "\n\n" : "\n";
  for (const [after, texts] of groups) {
    if (after) insertAfter(run, after, texts, sep);
    else insertFirst(run, object, texts, sep);
  }
  return imports;
}

/** Inserts methods at the start of the object, before its first member, if any. */
function insertFirst(
  run: Run,
  object: ObjectLiteralExpression,
  texts: readonly string[],
  sep: string,
): void {
  const open = object.getStart() + 1;
  let out = texts.map((t, i) => `${i === 0 ? "\n" : sep}${t},`).join("");
  if (object.getProperties().length > 0) out += sep.slice(1);
  else if (!run.text.slice(open, object.getEnd()).includes("\n")) out += "\n";
  insert(run, lineEnd(run.text, open), out);
}

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
function addImports(run: Run, needs: readonly ImportSpec[]): void {
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

/** New imports after the last import (at the start without one), in the file's quotes and semicolons. */
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

/**
 * The editing half of `wsdl-tsgen scaffold --update`: brings a scaffolded project's src/service.ts
 * up to date with the WSDL. It adds the methods of new operations (and the imports they need) and
 * says, as diagnostics, what it will not touch: methods of removed operations, and methods whose
 * input or output type changed.
 *
 * The file is the user's, so it is never reprinted: ts-morph only finds positions, and every change
 * is a text insertion into the original string. Every byte outside the inserted ranges stays as it
 * was. This module and those it imports (update-run.ts, update-imports.ts, update-declarations.ts)
 * are the only ones that import ts-morph (the CLI loads them by dynamic import for
 * `--update` alone), so that `generate` does not load a TypeScript compiler it does not need.
 */
import {
  Node,
  Project,
  ts,
  type ObjectLiteralElementLike,
  type ObjectLiteralExpression,
  type SourceFile,
  type TypeNode,
} from "ts-morph";
import { diagnostic } from "../diagnostics.js";
import { addImports } from "./update-imports.js";
import { copyDeclarations } from "./update-declarations.js";
import { reportUnusedImports } from "./update-unused.js";
import {
  applyEdits,
  insert,
  insertAfter,
  lineEnd,
  warn,
  type ImportSpec,
  type MethodSpec,
  tokens,
  type Run,
  type ServiceSpec,
  type UpdateResult,
} from "./update-run.js";

export type { ImportSpec, MethodSpec, ServiceSpec, UpdateResult } from "./update-run.js";

/**
 * `fresh`: src/service.ts as the templates write it now, where a declaration the added methods
 * need and the file lacks is taken from (update-declarations.ts).
 */
export function updateService(
  text: string,
  file: string,
  services: readonly ServiceSpec[],
  fresh = "",
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
    removed: [],
    added: [],
  };
  const imports: ImportSpec[] = [];
  for (const service of services) imports.push(...updateObject(run, service));
  imports.push(...copyDeclarations(run, fresh, run.added));
  addImports(run, imports);
  reportUnusedImports(run, services);
  return { text: applyEdits(text, run.edits), changes: run.changes, diagnostics: run.diagnostics };
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

/**
 * A member's property name as the object has it at run time; undefined for spreads and `[expr]`.
 */
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
  run.removed.push(member);
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
  if (spec.typeChanges?.length) {
    const message =
      `method ${spec.method} of ${service.objectName}: types it uses changed inside ` +
      `(${spec.typeChanges.join(" | ")}); the method was kept as written`;
    warn(run, "SCAFFOLD_SIGNATURE_CHANGED", message, member.getStart());
  }
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

/**
 * Whether the object's members are separated by blank lines (the template's layout, so the
 * default).
 */
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
    run.added.push(spec.text);
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

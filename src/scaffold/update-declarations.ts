/**
 * The top-level declarations that the methods `scaffold --update` adds use but the user's file
 * lacks: the `mocks` of a mock project scaffolded before its methods called `mocks.answer`. Each
 * is copied, with its doc comment, from src/service.ts as the templates write it now, after the
 * file's last import; the names it uses are imported as that rendering imports them.
 */
import { Project, ts, type SourceFile, type VariableStatement } from "ts-morph";
import { insert, type ImportSpec, type Run } from "./update-run.js";

/** The identifiers a piece of code names (its tokens of that kind). */
function identifiers(text: string): Set<string> {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const out = new Set<string>();
  while (scanner.scan() !== ts.SyntaxKind.EndOfFileToken)
    if (scanner.getToken() === ts.SyntaxKind.Identifier) out.add(scanner.getTokenText());
  return out;
}

/** The names `sf` imports, each as the spec that imports it. */
function importsOf(sf: SourceFile): Map<string, ImportSpec> {
  const out = new Map<string, ImportSpec>();
  for (const decl of sf.getImportDeclarations())
    for (const spec of decl.getNamedImports()) {
      const typeOnly = decl.isTypeOnly() || spec.isTypeOnly();
      out.set(spec.getName(), {
        name: spec.getName(),
        from: decl.getModuleSpecifierValue(),
        typeOnly,
      });
    }
  return out;
}

/** Where a new declaration goes: after the last import, else at the start. */
const afterImports = (sf: SourceFile): number => sf.getImportDeclarations().at(-1)?.getEnd() ?? 0;

/**
 * Copies into the file each top-level variable of `fresh` that `added` (the inserted methods'
 * texts) names and the file does not declare; gives the imports the copies need.
 */
export function copyDeclarations(run: Run, fresh: string, added: readonly string[]): ImportSpec[] {
  const used = identifiers(added.join("\n"));
  if (used.size === 0) return [];
  const freshSf = new Project({ useInMemoryFileSystem: true }).createSourceFile("/fresh.ts", fresh);
  const freshImports = importsOf(freshSf);
  const imports: ImportSpec[] = [];
  for (const statement of freshSf.getVariableStatements()) {
    const names = statement.getDeclarations().map((d) => d.getName());
    if (!names.some((n) => used.has(n))) continue;
    // Any binding of the name (an import, a function, a class) is the user's own: left alone.
    if (names.some((n) => run.sf.getLocal(n) !== undefined)) continue;
    insert(run, afterImports(run.sf), `\n\n${statementText(statement)}`);
    run.changes.push(`declared ${names.join(", ")}`);
    for (const name of identifiers(statement.getText())) {
      const spec = freshImports.get(name);
      if (spec) imports.push(spec);
    }
  }
  return imports;
}

/** A statement's text with its doc comment (the trivia before it, from its first comment). */
function statementText(statement: VariableStatement): string {
  const docs = statement.getJsDocs();
  const start = docs.length > 0 ? docs[0]!.getStart() : statement.getStart();
  return statement.getSourceFile().getFullText().slice(start, statement.getEnd());
}

/**
 * The imports a removed operation leaves behind in a scaffolded service file: names imported from
 * the generated SDK that no present operation's method needs and that the file uses nowhere but in
 * removed operations' methods. Reported, never removed: the file is the user's, and the method may
 * stay as a helper.
 */
import { Node, SyntaxKind } from "ts-morph";
import { warn, type Run, type ServiceSpec } from "./update-run.js";

export function reportUnusedImports(run: Run, services: readonly ServiceSpec[]): void {
  if (run.removed.length === 0) return;
  const specs = services.flatMap((s) => s.methods.flatMap((m) => m.imports));
  const modules = new Set(specs.map((i) => i.from));
  const needed = new Set(specs.map((i) => i.name));
  const inRemoved = (n: Node) =>
    run.removed.some((r) => n.getPos() >= r.getPos() && n.getEnd() <= r.getEnd());
  for (const decl of run.sf.getImportDeclarations()) {
    const from = decl.getModuleSpecifierValue();
    if (!modules.has(from)) continue;
    for (const spec of decl.getNamedImports()) {
      const local = (spec.getAliasNode() ?? spec.getNameNode()).getText();
      if (needed.has(spec.getName())) continue;
      const uses = run.sf
        .getDescendantsOfKind(SyntaxKind.Identifier)
        .filter(
          (id) =>
            id.getText() === local && !id.getFirstAncestorByKind(SyntaxKind.ImportDeclaration),
        );
      if (!uses.every(inRemoved)) continue;
      // Unused before the update too, it was not the removed operations that left it so.
      const why =
        uses.length === 0
          ? ": nothing uses it, and no operation the WSDL still has needs it; remove it"
          : " is left unused by the operations the WSDL no longer has (only removed operations' " +
            "methods use it); remove it with the methods";
      const message =
        `the import of ${spec.getName()} from "${from}"${why}, or the file no longer compiles ` +
        `once the SDK stops exporting it`;
      warn(run, "SCAFFOLD_IMPORT_UNUSED", message, spec.getStart());
    }
  }
}

/** The guards' measure of length: nodes of a source file counted from first line to last. */
import { readFileSync } from "node:fs";
import ts from "typescript";

/**
 * The nodes of `file` that `is` picks and that are longer than `max` lines (first line to closing
 * brace), as "label:line name (lines)".
 */
export function longNodes(
  file: string,
  label: string,
  max: number,
  is: (node: ts.Node) => boolean,
): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (is(node)) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.end).line;
      const named = node as ts.Node & { name?: ts.Node };
      const name = named.name?.getText(sf) ?? "(anonymous)";
      if (last - first + 1 > max) found.push(`${label}:${first + 1} ${name} (${last - first + 1})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** JSDoc comments from XSD and WSDL documentation. */
export function jsDoc(text: string | undefined, indent = ""): string {
  if (!text) return "";
  const lines = text
    .replace(/\*\//g, "*\\/")
    .split(/\r?\n/)
    .map((l) => l.trimEnd());
  if (lines.length === 1) return `${indent}/** ${lines[0]!.trim()} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l.trim()}`.trimEnd()).join("\n")}\n${indent} */\n`;
}

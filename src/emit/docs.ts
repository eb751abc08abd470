/** The WSDL's or a schema's documentation text, unless the `docs` option is off. */
export function sourceDoc(
  ctx: { readonly docs: boolean },
  text: string | undefined,
): string | undefined {
  return ctx.docs ? text : undefined;
}

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

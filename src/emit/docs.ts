/** The WSDL's or a schema's documentation text, unless the `docs` option is off. */
export function sourceDoc(
  ctx: { readonly docs: boolean },
  text: string | undefined,
): string | undefined {
  return ctx.docs ? text : undefined;
}

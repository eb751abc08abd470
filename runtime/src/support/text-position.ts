/** Line and column (1-based) of a character offset in a text: for located error messages. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Line and column (1-based) of an offset in a document given as text (a character offset) or as
 * UTF-8 bytes (a byte offset; the column still counts characters, as in the text).
 */
export function positionIn(
  source: string | Uint8Array,
  offset: number,
): { line: number; column: number } {
  if (typeof source === "string") return positionOf(source, offset);
  const end = Math.min(offset, source.length);
  let line = 1;
  let lineStart = 0;
  for (let i = source.indexOf(10); i !== -1 && i < end; i = source.indexOf(10, i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: new TextDecoder().decode(source.subarray(lineStart, end)).length + 1 };
}

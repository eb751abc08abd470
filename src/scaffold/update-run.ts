/**
 * What a run of `scaffold --update` over src/service.ts works with: the specs of what the file
 * should hold, and the text insertions it collects. Every change is an insertion into the original
 * string, applied back to front, so that every byte outside them stays as it was.
 */
import { ts, type Node, type SourceFile } from "ts-morph";
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
  /**
   * What changed inside the generated types the method's signature reaches, one line per type,
   * in the SDK this update writes: a renamed field leaves the signature's text the same.
   */
  readonly typeChanges?: readonly string[];
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
export interface Edit {
  readonly pos: number;
  readonly text: string;
  readonly seq: number;
}

/** What one run collects while it walks the file. */
export interface Run {
  readonly text: string;
  readonly file: string;
  readonly sf: SourceFile;
  /** The file's line break, so that inserted lines match a CRLF file. */
  readonly eol: string;
  readonly edits: Edit[];
  readonly changes: string[];
  readonly diagnostics: Diagnostic[];
  /** The members of removed operations' methods, as reported: what unused imports are read past. */
  readonly removed: Node[];
  /** The texts of the methods added, whose top-level needs are copied in. */
  readonly added: string[];
}

/** Applies the insertions back to front, so that each position still means the original's. */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  let out = text;
  const sorted = [...edits].sort((a, b) => b.pos - a.pos || b.seq - a.seq);
  for (const e of sorted) out = out.slice(0, e.pos) + e.text + out.slice(e.pos);
  return out;
}

export function insert(run: Run, pos: number, text: string): void {
  run.edits.push({ pos, text: text.replace(/\r?\n/g, run.eol), seq: run.edits.length });
}

export function warn(run: Run, code: DiagnosticCode, message: string, pos: number): void {
  const { line, column } = run.sf.getLineAndColumnAtPos(pos);
  run.diagnostics.push(diagnostic(code, message, { file: run.file, line, column }, "warning"));
}

/** A text's tokens joined by single spaces: its comments and layout left out, for comparing. */
export function tokens(text: string): string {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const out: string[] = [];
  while (scanner.scan() !== ts.SyntaxKind.EndOfFileToken) out.push(scanner.getTokenText());
  return out.join(" ");
}

/** The next token at or after `pos`, past white space and comments. */
export function nextToken(text: string, pos: number): { kind: ts.SyntaxKind; end: number } {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  scanner.resetTokenState(pos);
  const kind = scanner.scan();
  return { kind, end: scanner.getTokenEnd() };
}

/** `pos`, or past the comments that follow it on its line: they belong to what precedes them. */
export function lineEnd(text: string, pos: number): number {
  const comments = ts.getTrailingCommentRanges(text, pos);
  return comments?.length ? comments[comments.length - 1]!.end : pos;
}

/**
 * Inserts `items` into a comma-separated list after `node`, each preceded by `sep`. They go past
 * the comma that follows `node` and past any comment on its line, so that such a comment stays
 * with the item it was written for; a last item without a comma gets one.
 */
export function insertAfter(run: Run, node: Node, items: readonly string[], sep: string): void {
  const next = nextToken(run.text, node.getEnd());
  if (next.kind === ts.SyntaxKind.CommaToken) {
    insert(run, lineEnd(run.text, next.end), items.map((t) => `${sep}${t},`).join(""));
  } else {
    insert(run, node.getEnd(), ",");
    insert(run, lineEnd(run.text, node.getEnd()), items.map((t) => sep + t).join(","));
  }
}

/**
 * The scaffold's templates: Handlebars templates of a project's files, precompiled at build
 * (scripts/precompile-templates.mjs) and overridden by name from a user's `--templates` folder.
 * Handlebars is loaded here only, and only `scaffold` loads this module.
 */
import { existsSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type Handlebars from "handlebars";
import { diagnostic, DiagnosticError } from "../diagnostics.js";
import type { OperationContext, ScaffoldContext } from "./context.js";
import { fit } from "./fit.js";

/**
 * The compiler's options, for the built-in and the user's templates alike: `strict`, so that a
 * misspelt field is a located error rather than empty text; no HTML escaping in code.
 */
export const COMPILE_OPTIONS = { strict: true, noEscape: true } as const;

/** The built-in templates' folder, in the package (and in a checkout). */
export const TEMPLATES_DIR = fileURLToPath(new URL("../../templates/", import.meta.url));

/** Partials live in this subfolder; every other `.hbs` file is a file of the project. */
const PARTIALS = "partials";

/**
 * The gateway's own templates (`scaffold --gateway`) live in this subfolder, and replace those of
 * the same path; a gateway has no implementation, so it drops the server's.
 */
const GATEWAY = "gateway/";
const SERVER_ONLY = ["src/service.ts.hbs", "test/service.test.ts.hbs", "partials/method.hbs"];

/** What a project is: a server (or mock) to implement, or a gateway over a backend. */
export type ProjectKind = "server" | "gateway";

/** The templates of `kind` out of all the built-in ones, by path. */
function ofKind<T>(all: ReadonlyMap<string, T>, kind: ProjectKind): Map<string, T> {
  const out = new Map<string, T>();
  for (const [rel, t] of all) {
    if (rel.startsWith(GATEWAY)) {
      if (kind === "gateway") out.set(rel.slice(GATEWAY.length), t);
    } else if (kind === "server" || !SERVER_ONLY.includes(rel)) if (!out.has(rel)) out.set(rel, t);
  }
  return out;
}

type Hb = typeof Handlebars;
type Render = Handlebars.TemplateDelegate;

/** A template and the file it came from, for located errors. */
interface Template {
  readonly render: Render;
  readonly file: string;
}

/** What a run renders: project files by path, partials by name, files copied as they are. */
export interface TemplateSet {
  readonly files: ReadonlyMap<string, Template>;
  readonly partials: ReadonlyMap<string, Template>;
  readonly copies: ReadonlyMap<string, string>;
}

/** The project path a template path writes: `.hbs` off, and `_gitignore` as `.gitignore`. */
export function outputPath(templatePath: string): string {
  const p = templatePath.replace(/\.hbs$/, "");
  return p.replace(/(^|\/)_gitignore$/, "$1.gitignore");
}

/** Every file below `dir`, as paths relative to it with `/`, sorted. */
async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .sort();
}

/** Running from src/ (the tests): no build has precompiled the templates. */
const FROM_SOURCE = import.meta.url.endsWith(".ts");

/** The built-in templates as the build precompiled them, or undefined when running from src/. */
async function precompiled(): Promise<Readonly<Record<string, TemplateSpecification>> | undefined> {
  return FROM_SOURCE ? undefined : (await import("./precompiled.js")).TEMPLATES;
}

/**
 * A Handlebars environment of this run's own: the runtime alone when every template is
 * precompiled, the compiler too when some are not (a user's, or a checkout's).
 */
async function environment(compiler: boolean): Promise<Hb> {
  const hb = compiler ? await import("handlebars") : await import("handlebars/runtime.js");
  return hb.default.create();
}

async function compileFile(hb: Hb, dir: string, rel: string): Promise<Template> {
  const file = path.join(dir, rel);
  const source = await readFile(file, "utf8");
  return { render: hb.compile(source, COMPILE_OPTIONS), file };
}

/** The templates of a folder: `.hbs` files compiled, any other file to be copied as it is. */
async function readFolder(hb: Hb, dir: string, into: Map<string, Template>) {
  const copies = new Map<string, string>();
  for (const rel of await filesBelow(dir)) {
    if (rel.endsWith(".hbs")) into.set(rel, await compileFile(hb, dir, rel));
    else copies.set(rel, path.join(dir, rel));
  }
  return copies;
}

/**
 * The templates of one run: the built-in ones, each replaced by the user's of the same path, and
 * the user's others added. A user's file not ending in `.hbs` is copied as it is.
 */
export async function loadTemplates(
  userDir: string | undefined,
  kind: ProjectKind = "server",
): Promise<{ set: TemplateSet; hb: Hb }> {
  if (userDir !== undefined && !existsSync(userDir)) {
    const at = { file: userDir, line: 0, column: 0 };
    const message = "the --templates folder does not exist; expected a folder of .hbs templates";
    throw new DiagnosticError([diagnostic("SCAFFOLD_TEMPLATES", message, at)]);
  }
  const specs = await precompiled();
  const hb = await environment(userDir !== undefined || specs === undefined);
  const builtIn = new Map<string, Template>();
  if (specs === undefined) await readFolder(hb, TEMPLATES_DIR, builtIn);
  for (const [rel, spec] of Object.entries(specs ?? {}))
    builtIn.set(rel, { render: hb.template(spec), file: path.join(TEMPLATES_DIR, rel) });
  const all = ofKind(builtIn, kind);
  const copies = userDir === undefined ? new Map() : await readFolder(hb, userDir, all);
  const files = new Map<string, Template>();
  const partials = new Map<string, Template>();
  for (const [rel, t] of all) {
    if (rel.startsWith(`${PARTIALS}/`)) partials.set(rel.slice(PARTIALS.length + 1, -4), t);
    else files.set(outputPath(rel), t);
  }
  for (const [name, t] of partials) hb.registerPartial(name, t.render);
  const set = { files, partials, copies };
  registerHelpers(hb, set);
  return { set, hb };
}

/** Where a Handlebars error says it happened: its line and column, when it says. */
function errorAt(e: unknown): { line: number; column: number; message: string } {
  const number = (key: string): number =>
    e instanceof Error && key in e && typeof Reflect.get(e, key) === "number"
      ? Number(Reflect.get(e, key))
      : 0;
  let message = e instanceof Error ? e.message : String(e);
  let line = number("lineNumber");
  let column = number("column");
  const parse = /^Parse error on line (\d+):/.exec(message);
  if (parse) {
    line = Number(parse[1]);
    message = message.split("\n").slice(-1)[0]!;
  }
  const suffix = / - (\d+):(\d+)$/.exec(message);
  if (suffix) {
    [line, column] = [Number(suffix[1]), Number(suffix[2])];
    message = message.slice(0, suffix.index);
  }
  // Handlebars counts columns from 0.
  return { line, column: line > 0 ? column + 1 : 0, message };
}

/** The `{{…}}` at a line and column of a template, to show where it failed. */
function mustacheAt(file: string, line: number, column: number): string | undefined {
  const text = readFileSync(file, "utf8").split("\n")[line - 1] ?? "";
  const start = text.lastIndexOf("{{", column);
  const end = text.indexOf("}}", start);
  return start < 0 || end < 0 ? undefined : text.slice(start, end + 2).replace(/^{{{/, "{{");
}

/** A template's failure as a located diagnostic. */
function templateError(file: string, e: unknown): DiagnosticError {
  if (e instanceof DiagnosticError) return e;
  const { line, column, message } = errorAt(e);
  const undefinedField = /^"([^"]+)" not defined in/.exec(message);
  const at = undefinedField && line > 0 ? mustacheAt(file, line, column) : undefined;
  const what = undefinedField
    ? `${at ? `${at}: ` : ""}"${undefinedField[1]}" is not defined there; expected a field of the template context (docs/cli.md, "The template context")`
    : message;
  return new DiagnosticError([
    diagnostic("SCAFFOLD_TEMPLATE", `the template failed: ${what}`, { file, line, column }),
  ]);
}

/** Renders one template; a failure is a located diagnostic naming the template file. */
function run(t: Template, context: unknown, root: ScaffoldContext): string {
  try {
    return t.render(context, { data: { root } });
  } catch (e) {
    throw templateError(t.file, e);
  }
}

/**
 * The helpers templates may use: `json` (a JSON literal of a value), `join` (a list's items, or its
 * block rendered for each, with a separator between), `fit` (its block with lines fitted to 100
 * columns, see fit.ts) and `renderMethod` (the `method` partial rendered for one operation,
 * without its last line break, so that a comma can follow).
 */
function registerHelpers(hb: Hb, set: TemplateSet): void {
  hb.registerHelper("json", (value: unknown) => JSON.stringify(value));
  hb.registerHelper(
    "join",
    (items: readonly unknown[], separator: string, options: Handlebars.HelperOptions) =>
      items
        .map((item, index) => {
          if (typeof options.fn !== "function") return String(item);
          const frame: Record<string, unknown> = hb.createFrame(options.data);
          Object.assign(frame, { index, first: index === 0, last: index === items.length - 1 });
          return options.fn(item, { data: frame });
        })
        .join(separator),
  );
  hb.registerHelper("fit", function (this: unknown, options: Handlebars.HelperOptions) {
    return fit(options.fn(this));
  });
  hb.registerHelper("renderMethod", (op: OperationContext, options: Handlebars.HelperOptions) => {
    const data: { root: ScaffoldContext } = options.data;
    return renderMethod(set, data.root, op);
  });
}

/** One operation's method, as the `method` partial writes it (also what `--update` inserts). */
export function renderMethod(set: TemplateSet, root: ScaffoldContext, op: OperationContext) {
  const partial = set.partials.get("method");
  if (!partial) throw new Error("the templates have no partials/method.hbs");
  return run(partial, op, root).replace(/\n+$/, "");
}

export interface RenderedFile {
  readonly path: string;
  readonly content: string;
}

/** One project file as the templates write it for `context`; "" when they write no such file. */
export function renderFile(set: TemplateSet, context: ScaffoldContext, file: string): string {
  const t = set.files.get(file);
  return t ? run(t, context, context) : "";
}

/** Every project file the templates write for `context`, sorted by path. */
export function renderProject(set: TemplateSet, context: ScaffoldContext): RenderedFile[] {
  return [...set.files]
    .map(([p, t]) => ({ path: p, content: run(t, context, context) }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

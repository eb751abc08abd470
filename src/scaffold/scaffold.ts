/**
 * `wsdl-tsgen scaffold`: a project around a generated SDK (a server, or with `mock` a mock of the
 * service), from the templates; `update` brings a scaffolded project in step with its WSDL. Only
 * the CLI's `scaffold` command loads this module, so `generate` never loads Handlebars or ts-morph.
 */
import { existsSync, readFileSync } from "node:fs";
import { copyFile, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { diagnostic, DiagnosticError, type Diagnostic } from "../diagnostics.js";
import { download } from "../download.js";
import { generate, sourceLabel, type GenerateResult } from "../generate.js";
import type { LoadOptions } from "../parse/loader.js";
import {
  scaffoldContext,
  sharedPathWarnings,
  type ScaffoldContext,
  type ScaffoldVersions,
} from "./context.js";
import { loadTemplates, renderProject, type TemplateSet } from "./templates.js";
import { openApiDocument } from "../emit/openapi/openapi.js";
import type { EmitPlan } from "../transform/plan.js";
import type { WsdlModel } from "../model/model.js";

/** Where things live in a scaffolded project. */
export const LAYOUT = {
  wsdl: "wsdl",
  generated: "src/generated",
  service: "src/service.ts",
  config: "wsdl-tsgen.config.json",
  /** A gateway's OpenAPI document, which it serves and validates by. */
  openapi: "openapi.json",
} as const;

export interface ScaffoldOptions extends LoadOptions {
  /** The WSDL: a path or an http(s) URL. */
  readonly wsdl: string;
  /** The project folder: new, or empty. */
  readonly out: string;
  readonly mock?: boolean;
  /** A JSON/OpenAPI gateway over the service (templates/gateway/), not a server to implement. */
  readonly gateway?: boolean;
  /** A folder of templates that replace the built-in ones by path, or add files. */
  readonly templates?: string;
  /** The npm package name. Default: the folder's name, made valid. */
  readonly name?: string;
  readonly strict?: boolean;
  /** Only these WSDL operations (and the types they reach), kept in the project's config. */
  readonly operations?: readonly string[];
}

export interface ScaffoldResult {
  /** The warnings of reading the WSDL (its errors are thrown, as a DiagnosticError). */
  readonly diagnostics: readonly Diagnostic[];
  /** The files written, relative to the project, sorted. */
  readonly files: readonly string[];
  readonly context: ScaffoldContext;
}

/** The generator's own package.json: its version and the versions it builds and tests with. */
function versions(): ScaffoldVersions {
  const own = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
    devDependencies: Record<string, string>;
  };
  const dev = (name: string) => own.devDependencies[name] ?? "*";
  // The range of the npm alias `typescript-7` ("npm:typescript@^7.0.2"), as it is written.
  const ts7 = /^npm:typescript@(.+)$/.exec(own.devDependencies["typescript-7"] ?? "")?.[1];
  if (ts7 === undefined)
    throw new Error("internal error: the generator's package.json has no typescript-7 alias");
  return {
    runtime: `^${own.version}`,
    generator: `^${own.version}`,
    // Either compiler: TypeScript 7 (what `npm i -D typescript` gives now) checks the project as
    // 5.x does (test/types/typescript7.test.ts); the generator needs neither's API.
    typescript: `${dev("typescript")} || ${ts7}`,
    tsx: dev("tsx"),
    vitest: dev("vitest"),
    typesNode: dev("@types/node"),
  };
}

/** A valid npm package name from a folder's name. */
export function packageName(folder: string): string {
  const name = path
    .basename(path.resolve(folder))
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, "-")
    .replace(/^[._-]+|-+$/g, "");
  return name || "soap-service";
}

const usage = (message: string, file: string): DiagnosticError =>
  new DiagnosticError([diagnostic("SCAFFOLD_USAGE", message, { file, line: 0, column: 0 })]);

/**
 * Writes a new project into `options.out` (which must not exist, or be empty). A failure (a
 * defective WSDL, a broken template) throws a DiagnosticError and leaves the folder as it was.
 */
export async function scaffold(options: ScaffoldOptions): Promise<ScaffoldResult> {
  const out = options.out;
  if (existsSync(out) && (await readdir(out)).length > 0)
    throw usage("the folder is not empty; expected a new or empty folder for the project", out);
  if (
    options.name !== undefined &&
    !/^(@[a-z0-9~-][\w.~-]*\/)?[a-z0-9~-][\w.~-]*$/.test(options.name)
  )
    throw usage(`--name ${options.name} is not a valid npm package name`, out);
  // The templates first: a broken one fails before anything is written.
  const { set } = await loadTemplates(options.templates, options.gateway ? "gateway" : "server");
  const existed = existsSync(out);
  try {
    return await write(options, set);
  } catch (e) {
    // The folder was new or empty: a failure leaves it as it was.
    await rm(out, { recursive: true, force: true });
    if (existed) await mkdir(out);
    throw e;
  }
}

async function write(options: ScaffoldOptions, set: TemplateSet): Promise<ScaffoldResult> {
  const out = options.out;
  const loaded = await download(options.wsdl, path.join(out, LAYOUT.wsdl), options);
  const wsdl = `${LAYOUT.wsdl}/${loaded.root}`;
  const result = await generateInto(out, wsdl, false, options.strict === true, options.operations);
  // A failure removes the project: what it says is located in the documents as they were read.
  const located = (ds: readonly Diagnostic[]) => relocated(ds, out, loaded.origins);
  if (!result.ok) throw new DiagnosticError(located(result.diagnostics));
  if (!result.model!.services.some((s) => s.ports.length > 0)) {
    const message =
      "the WSDL has no service with a port of a SOAP or HTTP binding, so there is nothing to serve; expected a wsdl:service (generate its types alone with `wsdl-tsgen generate`)";
    const at = { file: sourceLabel(options.wsdl), line: 0, column: 0 };
    throw new DiagnosticError([
      ...located(result.diagnostics),
      diagnostic("SCAFFOLD_NO_SERVICE", message, at),
    ]);
  }
  const context = scaffoldContext({
    model: result.model!,
    plan: result.plan!,
    name: options.name ?? packageName(out),
    mock: options.mock === true,
    gateway: options.gateway === true,
    source: sourceLabel(options.wsdl),
    wsdl,
    generated: LAYOUT.generated,
    templates: options.templates ? toPosix(path.relative(out, options.templates)) : "",
    operations: options.operations,
    versions: versions(),
    docs: true,
  });
  const written = await writeProject(out, set, context);
  if (options.gateway) written.push(await writeOpenApiFile(out, result.plan!));
  const files = [
    ...loaded.files.map((f) => `${LAYOUT.wsdl}/${f}`),
    ...result.files.map((f) => `${LAYOUT.generated}/${f.path}`),
    ...written,
  ];
  const diagnostics = [
    ...result.diagnostics,
    ...sharedPathWarnings(result.model!),
    ...(options.gateway ? gatewayWarnings(result.model!) : []),
  ];
  return { diagnostics, files: files.sort(), context };
}

const toPosix = (p: string) => p.split(path.sep).join("/");

/**
 * The OpenAPI document a gateway project serves, as its file's text: its first service's alone,
 * the one its templates serve (see gatewayWarnings).
 */
export function openApiText(plan: EmitPlan): string {
  const service = plan.model.services[0]?.name;
  const doc = openApiDocument(plan, service === undefined ? {} : { service });
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** A gateway serves one service, the first: the others are named, not left out unsaid. */
export function gatewayWarnings(model: WsdlModel): Diagnostic[] {
  const [first, ...others] = model.services;
  if (first === undefined || others.length === 0) return [];
  const names = others.map((s) => s.name).join(", ");
  const message = `a gateway serves one service, ${first.name} (the first); ${names} ${others.length === 1 ? "is" : "are"} not served (scaffold a gateway from a WSDL that declares only the one to serve)`;
  return [diagnostic("SCAFFOLD_GATEWAY_ONE_SERVICE", message, others[0]!.loc, "warning")];
}

/** Writes a gateway project's openapi.json; gives its path in the project. */
async function writeOpenApiFile(out: string, plan: EmitPlan): Promise<string> {
  await writeFile(path.join(out, LAYOUT.openapi), openApiText(plan));
  return LAYOUT.openapi;
}

/**
 * Diagnostics located in the project's vendored WSDL (`out`/wsdl/…), moved to where it came from.
 */
function relocated(
  ds: readonly Diagnostic[],
  out: string,
  origins: ReadonlyMap<string, string>,
): Diagnostic[] {
  const byPath = new Map(
    [...origins].map(([name, from]) => [path.resolve(out, LAYOUT.wsdl, name), sourceLabel(from)]),
  );
  return ds.map((d) => {
    const from = byPath.get(path.resolve(out, d.file)) ?? byPath.get(path.resolve(d.file));
    return from === undefined ? d : { ...d, file: from };
  });
}

/** Generates the SDK of the project in `dir` from its vendored WSDL (`check`: writes nothing). */
export function generateInto(
  dir: string,
  wsdl: string,
  check: boolean,
  strict: boolean,
  operations?: readonly string[],
): Promise<GenerateResult> {
  return generate(path.join(dir, wsdl), {
    out: path.join(dir, LAYOUT.generated),
    labelBase: dir,
    strict,
    check,
    ...(operations ? { operations } : {}),
  });
}

/** Renders the templates and writes them, and the user's files to copy, into the project. */
async function writeProject(
  out: string,
  set: TemplateSet,
  context: ScaffoldContext,
): Promise<string[]> {
  const files = renderProject(set, context);
  for (const f of files) await writeAt(path.join(out, f.path), f.content);
  for (const [rel, from] of set.copies) {
    await mkdir(path.dirname(path.join(out, rel)), { recursive: true });
    await copyFile(from, path.join(out, rel));
  }
  return [...files.map((f) => f.path), ...set.copies.keys()];
}

async function writeAt(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

/**
 * `wsdl-tsgen scaffold --update`, in a scaffolded project: regenerate the SDK from the vendored
 * WSDL, then add to src/service.ts a method for each new operation (ts-morph, loaded here only),
 * saying where a method no longer fits the WSDL. What the user wrote is never changed.
 */
import { readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { loadConfig } from "../config/config.js";
import { generateOptionsOf } from "../config/source-options.js";
import { diagnostic, type Diagnostic } from "../diagnostics.js";
import { generate, sourceLabel, writeGenerated, type GenerateResult } from "../generate.js";
import { scaffoldContext, RUNTIME, type ScaffoldContext } from "./context.js";
import { gatewayWarnings, LAYOUT, openApiText } from "./scaffold.js";
import { loadTemplates, renderFile, renderMethod, type TemplateSet } from "./templates.js";
import type { ServiceSpec } from "./update.js";

export interface UpdateOptions {
  /** Write nothing; say what would change. */
  readonly check: boolean;
  readonly strict: boolean;
}

export interface ProjectUpdate {
  readonly ok: boolean;
  readonly diagnostics: readonly Diagnostic[];
  /** One line per change, made or (with `check`) to make. */
  readonly changes: readonly string[];
}

const failed = (diagnostics: readonly Diagnostic[]): ProjectUpdate => ({
  ok: false,
  diagnostics,
  changes: [],
});

export async function updateProject(dir: string, options: UpdateOptions): Promise<ProjectUpdate> {
  const config = await loadConfig(path.join(dir, LAYOUT.config));
  const source = config.sources[0]!;
  const wsdl = toPosix(path.relative(dir, source.wsdl));
  // The config's settings (operations, enumConstants, docs…), as `generate` reads them; all of it
  // checked before anything is written, so that a failure leaves the project as it was.
  const base = await generateOptionsOf(source);
  const strict = options.strict || base.strict === true;
  const generated = await generate(source.wsdl, { ...base, labelBase: dir, strict, check: true });
  if (!generated.ok) return failed(generated.diagnostics);
  const out = toPosix(path.relative(dir, base.out));
  const changes = [
    ...generated.changed.map((f) => `${out}/${f}`),
    ...generated.removed.map((f) => `${out}/${f} (removed)`),
  ];
  const settings = config.scaffold ?? {};
  if (settings.gateway === true) return updateGateway(dir, base.out, generated, changes, options);
  const templates = settings.templates && path.join(dir, settings.templates);
  const { set } = await loadTemplates(templates || undefined);
  const context = scaffoldContext({
    model: generated.model!,
    plan: generated.plan!,
    name: "",
    mock: settings.mock === true,
    source: sourceLabel(source.wsdl),
    wsdl,
    generated: out,
    templates: settings.templates ?? "",
    operations: base.operations,
    versions: { runtime: "", generator: "", typescript: "", tsx: "", vitest: "", typesNode: "" },
    docs: base.docs !== false,
  });
  const serviceFile = path.join(dir, LAYOUT.service);
  const text = await readIfPresent(serviceFile);
  if (text === undefined) {
    const message = `expected the implementation scaffold wrote, ${LAYOUT.service}; it is missing`;
    const at = { file: LAYOUT.service, line: 0, column: 0 };
    return failed([...generated.diagnostics, diagnostic("SCAFFOLD_SERVICE_MISSING", message, at)]);
  }
  const { updateService } = await import("./update.js");
  // Loaded when a service is updated only (it brings ts-morph's parser), once for both uses.
  const { typeNames, typeChangeReporter } = await import("./update-types.js");
  const reached = await typeChangesOf(base.out, generated, typeChangeReporter);
  const specs = serviceSpecs(set, context).map((s) => ({
    ...s,
    methods: s.methods.map((m) => ({
      ...m,
      typeChanges: reached([...typeNames(m.inputType), ...typeNames(m.outputType)]),
    })),
  }));
  const fresh = renderFile(set, context, LAYOUT.service);
  const edited = updateService(text, LAYOUT.service, specs, fresh);
  let { diagnostics } = edited;
  const ok = !diagnostics.some((d) => d.severity === "error");
  if (ok && !options.check) {
    await writeGenerated(base.out, generated);
    if (edited.text !== text) {
      await writeFile(serviceFile, edited.text);
      // Located in the file as it now is, where the compiler will point too.
      diagnostics = updateService(edited.text, LAYOUT.service, specs, fresh).diagnostics;
    }
  }
  return {
    ok,
    diagnostics: [...generated.diagnostics, ...diagnostics],
    changes: ok ? [...changes, ...edited.changes.map((c) => `${LAYOUT.service}: ${c}`)] : [],
  };
}

const toPosix = (p: string) => p.split(path.sep).join("/");

/** A file's text, or undefined when it does not exist; another failure (a permission) is thrown. */
async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

/**
 * What changed in the generated types.ts on disk, by the types a signature names (none at first).
 */
async function typeChangesOf(
  out: string,
  generated: GenerateResult,
  typeChangeReporter: typeof import("./update-types.js").typeChangeReporter,
): Promise<(roots: readonly string[]) => string[]> {
  const next = generated.files.find((f) => f.path === "types.ts")?.content;
  const was = await readIfPresent(path.join(out, "types.ts"));
  if (next === undefined || was === undefined || was === next) return () => [];
  return typeChangeReporter(was, next);
}

/**
 * A gateway project brought in step: its SDK regenerated and its openapi.json rewritten from the
 * WSDL (it has no implementation to add methods to).
 */
async function updateGateway(
  dir: string,
  out: string,
  generated: GenerateResult,
  changes: readonly string[],
  options: UpdateOptions,
): Promise<ProjectUpdate> {
  const file = path.join(dir, LAYOUT.openapi);
  const text = openApiText(generated.plan!);
  const changed = (await readIfPresent(file)) !== text;
  if (!options.check) {
    await writeGenerated(out, generated);
    if (changed) await writeFile(file, text);
  }
  return {
    ok: true,
    diagnostics: [...generated.diagnostics, ...gatewayWarnings(generated.model!)],
    changes: [...changes, ...(changed ? [LAYOUT.openapi] : [])],
  };
}

/** What src/service.ts should hold: each service's methods as the templates write them. */
function serviceSpecs(set: TemplateSet, context: ScaffoldContext): ServiceSpec[] {
  // A mock's methods call `mocks.answer`, the `mocks` declared in service.ts itself.
  const mockImports = context.mock
    ? []
    : [{ name: "notImplemented", from: RUNTIME, typeOnly: false }];
  return context.services.map((s) => ({
    objectName: s.object,
    serviceName: s.name,
    methods: s.operations.map((op) => ({
      method: op.method,
      operation: op.name,
      inputType: op.inputType,
      outputType: op.outputType,
      text: renderMethod(set, context, op),
      imports: [
        ...mockImports,
        ...(context.mock
          ? [{ name: s.descriptor, from: "./generated/descriptors.js", typeOnly: false }]
          : []),
        ...op.imports.map((i) => ({ name: i.name, from: i.from, typeOnly: true })),
      ],
    })),
  }));
}

/** Runs the emitters over the plan: one view per file, rendered through its template, then formatted. */
import type { EmitPlan } from "../transform/plan.js";
import { INDEX_RUNTIME_TYPES, INDEX_RUNTIME_VALUES } from "../transform/names.js";
import { clientView } from "./client/emit-client.js";
import {
  faultDescriptors,
  serviceDescriptor,
  typeDescriptor,
} from "./descriptors/emit-descriptors.js";
import { formatTypeScript, SettledStatements } from "./format.js";
import { GeneratedFile, symbol } from "./generated-file.js";
import { serverView } from "./server/emit-server.js";
import { stringConst } from "./settle.js";
import type { EmbeddedWsdl } from "../runtime/embedded-wsdl.js";
import { render } from "./templates.js";
import { typeExpr, type EmitContext } from "./type-expressions.js";
import { typeDeclarations } from "./types/declarations.js";

export interface EmitOptions {
  /** Module specifier generated code imports the runtime from. */
  readonly runtimeImport: string;
  /** How the header names the input (a relative path or URL; never machine-specific). */
  readonly sourceLabel: string;
  /**
   * The WSDL embedded in wsdl.ts for `?WSDL`: the root document's text, or that and the documents it
   * imports (see EmbeddedWsdl); undefined: no wsdl.ts (`embedWsdl: false`).
   */
  readonly wsdl: string | EmbeddedWsdl | undefined;
  /** Copy documentation from the WSDL and its schemas into JSDoc comments. Default: true. */
  readonly docs?: boolean;
}

export interface OutputFile {
  readonly path: string;
  readonly content: string;
}

/** A generated file before formatting: the code as the templates lay it out. */
export interface RenderedFile {
  readonly path: string;
  readonly code: string;
  /** Statements the code holds as placeholders, already in their final layout. */
  readonly settled?: SettledStatements;
}

/** Emits and formats every file (sorted by path). */
export async function emitFiles(plan: EmitPlan, options: EmitOptions): Promise<OutputFile[]> {
  return formatFiles(renderFiles(plan, options));
}

/** Formats rendered files with the pinned configuration; the result is sorted by path. */
export async function formatFiles(files: readonly RenderedFile[]): Promise<OutputFile[]> {
  const out: OutputFile[] = [];
  for (const f of files)
    out.push({
      path: f.path,
      content: f.settled ? await f.settled.format(f.code) : await formatTypeScript(f.code),
    });
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Runs the emitters and templates: the code of every file, not yet formatted. */
export function renderFiles(plan: EmitPlan, options: EmitOptions): RenderedFile[] {
  const source = options.sourceLabel;
  const ctxFor = (file: GeneratedFile, typesModule: string | undefined): EmitContext => ({
    plan,
    file,
    runtime: options.runtimeImport,
    typesModule,
    docs: options.docs ?? true,
  });
  const services = plan.model.services;
  const files: RenderedFile[] = [];
  /**
   * A file whose statements may be settled: `build` makes its template view with the file's context
   * (symbols it uses are imported) and its settled statements; the import lines come last, once known.
   */
  const settledFile = (
    path: string,
    declared: readonly string[],
    typesModule: string | undefined,
    build: (ctx: EmitContext, settled: SettledStatements) => Record<string, unknown>,
  ): void => {
    const file = new GeneratedFile(path, declared);
    const settled = new SettledStatements();
    const view = build(ctxFor(file, typesModule), settled);
    // Each import line as a statement of its own.
    const imports = file
      .printImports()
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => settled.add(l))
      .join("\n");
    files.push({ path, code: render(path, { source, ...view, imports }), settled });
  };

  // types.ts
  const declaredTypes = [...plan.typeNames.values()].flatMap((n) => [n.type, n.input]);
  settledFile("types.ts", declaredTypes, undefined, (ctx, settled) => ({
    declarations: plan.model.types
      .flatMap((t) => typeDeclarations(ctx, t))
      .map((d) => settled.add(d)),
  }));

  // descriptors.ts
  const descDeclared = [
    ...[...plan.typeNames.values()].map((n) => n.descriptor),
    ...[...plan.serviceNames.values()].map((n) => n.descriptor),
    ...plan.namespaces.values(),
    ...[...plan.faultClasses.values()].map((f) => f.descriptor),
  ];
  settledFile("descriptors.ts", descDeclared, undefined, (ctx, settled) => {
    const simpleFirst = [...plan.model.types].sort((a, b) =>
      a.kind === b.kind ? 0 : a.kind === "simple" ? -1 : 1,
    );
    return {
      namespaces: [...plan.namespaces].map(([value, name]) => ({
        name,
        value: JSON.stringify(value),
      })),
      types: simpleFirst.map((t) => settled.add(typeDescriptor(ctx, t))),
      services: [
        ...faultDescriptors(ctx, "./faults.js"),
        ...services.map((s) => serviceDescriptor(ctx, s)),
      ].map((d) => settled.add(d)),
    };
  });

  // faults.ts
  const faultClasses = [...plan.faultClasses.entries()];
  const faultsFile = new GeneratedFile(
    "faults.ts",
    faultClasses.map(([, f]) => f.className),
  );
  const faultsCtx = ctxFor(faultsFile, "./types.js");
  const faults = faultClasses.map(([element, f]) => ({
    className: f.className,
    faultName: f.faultName,
    element: `{${element.name.ns}}${element.name.local}`,
    detailType: typeExpr(faultsCtx, element.type, "output"),
  }));
  const faultsView = {
    SoapFault: faults.length ? faultsFile.use(symbol("SoapFault", options.runtimeImport)) : "",
    SoapFaultInit: faults.length
      ? faultsFile.use(symbol("SoapFaultInit", options.runtimeImport, true))
      : "",
    faults,
  };
  files.push({
    path: "faults.ts",
    code: render("faults.ts", { source, ...faultsView, imports: faultsFile.printImports() }),
  });

  // client.ts
  const clientDeclared = services.flatMap((s) => {
    const n = plan.serviceNames.get(s)!;
    return [n.client, n.clientOptions, n.portName];
  });
  settledFile("client.ts", clientDeclared, "./types.js", (ctx, settled) => ({
    ...clientView(ctx, services, "./descriptors.js", settled),
  }));

  // server.ts
  const serverDeclared = services.flatMap((s) => {
    const n = plan.serviceNames.get(s)!;
    return [n.serviceInterface, n.handlerFactory, n.handlerOptions];
  });
  settledFile("server.ts", serverDeclared, "./types.js", (ctx, settled) => ({
    ...serverView(
      ctx,
      services,
      "./descriptors.js",
      options.wsdl === undefined
        ? undefined
        : { module: "./wsdl.js", imports: typeof options.wsdl === "object" },
      settled,
    ),
  }));

  // wsdl.ts, unless the WSDL is not embedded
  if (options.wsdl !== undefined) {
    const wsdlSettled = new SettledStatements();
    const text = (name: string, value: string) =>
      wsdlSettled.add(`export const ${name} = ${JSON.stringify(value)};`, stringConst(name, value));
    const statements =
      typeof options.wsdl === "string"
        ? [text("WSDL", options.wsdl)]
        : embeddedStatements(options.wsdl, text);
    files.push({
      path: "wsdl.ts",
      code: render("wsdl.ts", { source, statements }),
      settled: wsdlSettled,
    });
  }

  // index.ts
  const typeNames = [...new Set(declaredTypes)].sort();
  const rtTypes = INDEX_RUNTIME_TYPES;
  const rtValues = INDEX_RUNTIME_VALUES;
  const typeExports = [
    { from: options.runtimeImport, names: rtTypes.join(", ") },
    ...(typeNames.length ? [{ from: "./types.js", names: typeNames.join(", ") }] : []),
    {
      from: "./client.js",
      names: services
        .flatMap((s) => [
          plan.serviceNames.get(s)!.clientOptions,
          plan.serviceNames.get(s)!.portName,
        ])
        .sort()
        .join(", "),
    },
    {
      from: "./server.js",
      names: services
        .flatMap((s) => [
          plan.serviceNames.get(s)!.serviceInterface,
          plan.serviceNames.get(s)!.handlerOptions,
        ])
        .sort()
        .join(", "),
    },
  ].filter((e) => e.names !== "");
  const valueExports = [
    { from: options.runtimeImport, names: rtValues.join(", ") },
    {
      from: "./client.js",
      names: services
        .map((s) => plan.serviceNames.get(s)!.client)
        .sort()
        .join(", "),
    },
    {
      from: "./server.js",
      names: services
        .map((s) => plan.serviceNames.get(s)!.handlerFactory)
        .sort()
        .join(", "),
    },
    {
      from: "./faults.js",
      names: faults
        .map((f) => f.className)
        .sort()
        .join(", "),
    },
  ].filter((e) => e.names !== "");
  const indexSettled = new SettledStatements();
  const statements = [
    ...typeExports.map((e) => `export type { ${e.names} } from ${JSON.stringify(e.from)};`),
    ...valueExports.map((e) => `export { ${e.names} } from ${JSON.stringify(e.from)};`),
  ].map((st) => indexSettled.add(st));
  files.push({
    path: "index.ts",
    code: render("index.ts", { source, statements }),
    settled: indexSettled,
  });
  return files;
}

/**
 * wsdl.ts for a WSDL with imports: the root as WSDL, each document it reaches as a constant of its own
 * (`WSDL_XSD_1` for `?xsd=1`), and WSDL_IMPORTS, those constants by key.
 */
function embeddedStatements(
  wsdl: EmbeddedWsdl,
  text: (name: string, value: string) => string,
): string[] {
  const entries = Object.entries(wsdl.imports).map(([key, value]) => ({
    key,
    name: `WSDL_${key.replace("=", "_").toUpperCase()}`,
    value,
  }));
  return [
    text("WSDL", wsdl.root),
    ...entries.map((e) => text(e.name, e.value)),
    `/** The documents the WSDL imports or includes, by the query each is served at (\`?xsd=1\`). */\nexport const WSDL_IMPORTS = { ${entries.map((e) => `${JSON.stringify(e.key)}: ${e.name}`).join(", ")} };`,
  ];
}

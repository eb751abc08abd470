/** Runs the emitters over the plan: one view per file, rendered through its template, then formatted. */
import type { EmitPlan } from "../transform/plan.js";
import { INDEX_RUNTIME_TYPES, INDEX_RUNTIME_VALUES } from "../transform/names.js";
import { clientView } from "./client/emit-client.js";
import { faultDescriptors, serviceDescriptor, typeDescriptor } from "./descriptors/emit-descriptors.js";
import { formatTypeScript } from "./format.js";
import { GeneratedFile, symbol } from "./generated-file.js";
import { serverView } from "./server/emit-server.js";
import { render } from "./templates.js";
import { typeExpr, type EmitContext } from "./type-expressions.js";
import { typeDeclarations } from "./types/declarations.js";

export interface EmitOptions {
  /** Module specifier generated code imports the runtime from. */
  readonly runtimeImport: string;
  /** How the header names the input (a relative path or URL; never machine-specific). */
  readonly sourceLabel: string;
  /** The text of the root WSDL document, embedded in wsdl.ts for `?WSDL`; undefined: no wsdl.ts (`embedWsdl: false`). */
  readonly wsdlText: string | undefined;
  /** Copy documentation from the WSDL and its schemas into JSDoc comments. Default: true. */
  readonly docs?: boolean;
}

export interface OutputFile {
  readonly path: string;
  readonly content: string;
}

export async function emitFiles(plan: EmitPlan, options: EmitOptions): Promise<OutputFile[]> {
  const source = options.sourceLabel;
  const ctxFor = (file: GeneratedFile, typesModule: string | undefined): EmitContext => ({ plan, file, runtime: options.runtimeImport, typesModule, docs: options.docs ?? true });
  const services = plan.model.services;
  const files: { path: string; code: string }[] = [];

  // types.ts
  const declaredTypes = [...plan.typeNames.values()].flatMap((n) => [n.type, n.input]);
  const typesFile = new GeneratedFile("types.ts", declaredTypes);
  const typesCtx = ctxFor(typesFile, undefined);
  const declarations = plan.model.types.flatMap((t) => typeDeclarations(typesCtx, t));
  files.push({ path: "types.ts", code: render("types.ts", { source, imports: typesFile.printImports(), declarations }) });

  // descriptors.ts
  const descFile = new GeneratedFile("descriptors.ts", [
    ...[...plan.typeNames.values()].map((n) => n.descriptor),
    ...[...plan.serviceNames.values()].map((n) => n.descriptor),
    ...plan.namespaces.values(),
    ...[...plan.faultClasses.values()].map((f) => f.descriptor),
  ]);
  const descCtx = ctxFor(descFile, undefined);
  const simpleFirst = [...plan.model.types].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === "simple" ? -1 : 1));
  const typeDescs = simpleFirst.map((t) => typeDescriptor(descCtx, t));
  const serviceDescs = [...faultDescriptors(descCtx, "./faults.js"), ...services.map((s) => serviceDescriptor(descCtx, s))];
  files.push({
    path: "descriptors.ts",
    code: render("descriptors.ts", {
      source,
      imports: descFile.printImports(),
      namespaces: [...plan.namespaces].map(([value, name]) => ({ name, value: JSON.stringify(value) })),
      types: typeDescs,
      services: serviceDescs,
    }),
  });

  // faults.ts
  const faultClasses = [...plan.faultClasses.entries()];
  const faultsFile = new GeneratedFile("faults.ts", faultClasses.map(([, f]) => f.className));
  const faultsCtx = ctxFor(faultsFile, "./types.js");
  const faults = faultClasses.map(([element, f]) => ({
    className: f.className,
    faultName: f.faultName,
    element: `{${element.name.ns}}${element.name.local}`,
    detailType: typeExpr(faultsCtx, element.type, "output"),
  }));
  const faultsView = {
    SoapFault: faults.length ? faultsFile.use(symbol("SoapFault", options.runtimeImport)) : "",
    SoapFaultInit: faults.length ? faultsFile.use(symbol("SoapFaultInit", options.runtimeImport, true)) : "",
    faults,
  };
  files.push({ path: "faults.ts", code: render("faults.ts", { source, ...faultsView, imports: faultsFile.printImports() }) });

  // client.ts
  const clientDeclared = services.flatMap((s) => {
    const n = plan.serviceNames.get(s)!;
    return [n.client, n.clientOptions, n.portName];
  });
  const clientFile = new GeneratedFile("client.ts", clientDeclared);
  const clientCtx = ctxFor(clientFile, "./types.js");
  const cview = clientView(clientCtx, services, "./descriptors.js");
  files.push({ path: "client.ts", code: render("client.ts", { source, ...cview, imports: clientFile.printImports() }) });

  // server.ts
  const serverDeclared = services.flatMap((s) => {
    const n = plan.serviceNames.get(s)!;
    return [n.serviceInterface, n.handlerFactory, n.handlerOptions];
  });
  const serverFile = new GeneratedFile("server.ts", serverDeclared);
  const serverCtx = ctxFor(serverFile, "./types.js");
  const sview = serverView(serverCtx, services, "./descriptors.js", options.wsdlText === undefined ? undefined : "./wsdl.js");
  files.push({ path: "server.ts", code: render("server.ts", { source, ...sview, imports: serverFile.printImports() }) });

  // wsdl.ts
  if (options.wsdlText !== undefined) {
    files.push({
      path: "wsdl.ts",
      code: render("wsdl.ts", {
        source,
        documents: [{ name: "WSDL", text: JSON.stringify(options.wsdlText) }],
      }),
    });
  }

  // index.ts
  const typeNames = [...new Set(declaredTypes)].sort();
  const rtTypes = INDEX_RUNTIME_TYPES;
  const rtValues = INDEX_RUNTIME_VALUES;
  const typeExports = [
    { from: options.runtimeImport, names: rtTypes.join(", ") },
    ...(typeNames.length ? [{ from: "./types.js", names: typeNames.join(", ") }] : []),
    { from: "./client.js", names: services.flatMap((s) => [plan.serviceNames.get(s)!.clientOptions, plan.serviceNames.get(s)!.portName]).sort().join(", ") },
    { from: "./server.js", names: services.flatMap((s) => [plan.serviceNames.get(s)!.serviceInterface, plan.serviceNames.get(s)!.handlerOptions]).sort().join(", ") },
  ].filter((e) => e.names !== "");
  const valueExports = [
    { from: options.runtimeImport, names: rtValues.join(", ") },
    { from: "./client.js", names: services.map((s) => plan.serviceNames.get(s)!.client).sort().join(", ") },
    { from: "./server.js", names: services.map((s) => plan.serviceNames.get(s)!.handlerFactory).sort().join(", ") },
    { from: "./faults.js", names: faults.map((f) => f.className).sort().join(", ") },
  ].filter((e) => e.names !== "");
  files.push({ path: "index.ts", code: render("index.ts", { source, typeExports, valueExports }) });

  const out: OutputFile[] = [];
  for (const f of files) out.push({ path: f.path, content: await formatTypeScript(f.code) });
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

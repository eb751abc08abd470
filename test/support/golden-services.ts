/**
 * Loads a corpus golden for the round-trip tests: its checked-in generated modules (client, server,
 * descriptors) and, from the corpus root, the model and emit plan, for the names of the generated
 * classes and methods and for the choices (which the descriptors do not carry).
 */
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import {
  REPO_ROOT,
  goldenOut,
  goldenRoot,
  type CorpusGolden,
} from "../../scripts/corpus-goldens.js";
import { sourceLabel } from "../../src/generate.js";
import { buildModel } from "../../src/model/build.js";
import type { BindingOperation, ComplexType, SoapBindingOperation } from "../../src/model/model.js";
import { loadDocuments } from "../../src/parse/loader.js";
import type { ComplexDesc, ServiceDesc } from "../../runtime/src/index.js";
import { collectHierarchy } from "../../src/transform/names.js";
import { plan } from "../../src/transform/passes.js";
import type { ChoiceMap } from "./sample-values.js";

export interface GoldenService {
  readonly name: string;
  readonly desc: ServiceDesc;
  /** The generated client class and handler factory. */
  readonly Client: new (options: {
    endpoint: string;
    port: string;
  }) => Record<string, (input: unknown) => Promise<unknown>>;
  readonly createHandler: (
    impl: Record<string, (input: unknown, ctx: unknown) => unknown>,
    options?: object,
  ) => import("../../runtime/src/index.js").RequestListener;
  /** Generated method name per operation name. */
  readonly methods: ReadonlyMap<string, string>;
  /** Per port and operation, which parts of its request and response a schema declares (see XsdValidate.java). */
  readonly wire: ReadonlyMap<
    string,
    ReadonlyMap<string, { readonly request: WireMode; readonly response: WireMode }>
  >;
}

/**
 * What of a message a schema declares: the SOAP Header and Body entries and fault details
 * (document style), the same but the Body's rpc wrapper (rpc style), the whole document (an HTTP
 * GET/POST response), or nothing (an HTTP request's query or form; SOAP encoding, whose arrays and
 * references follow the SOAP encoding rules rather than the schema).
 */
export type WireMode = "soap-document" | "soap-rpc" | "document" | "none";

function wireModes(bo: BindingOperation): { request: WireMode; response: WireMode } {
  switch (bo.protocol) {
    case "httpGet":
    case "httpPost":
      return { request: "none", response: bo.mimeXmlElement ? "document" : "none" };
    case "soap11":
    case "soap12":
      return {
        request: soapWireMode(bo.soapInput, bo.inputEncoding),
        response: soapWireMode(bo.soapOutput, bo.outputEncoding),
      };
  }
}

function soapWireMode(
  shape: SoapBindingOperation["soapOutput"],
  encoding: SoapBindingOperation["outputEncoding"],
): WireMode {
  return encoding.kind === "soapBody" && encoding.use === "encoded"
    ? "none"
    : shape?.kind === "rpc"
      ? "soap-rpc"
      : "soap-document";
}

export interface LoadedGolden {
  readonly services: readonly GoldenService[];
  readonly choices: ChoiceMap;
}

export async function loadGolden(g: CorpusGolden): Promise<LoadedGolden> {
  return loadGenerated(goldenRoot(g), path.join(REPO_ROOT, goldenOut(g)), g.name);
}

/** The generated modules in `dir`, generated from the WSDL `file`, with what the round trip needs of its model. */
export async function loadGenerated(
  file: string,
  dir: string,
  label: string,
): Promise<LoadedGolden> {
  const built = buildModel(await loadDocuments(file), sourceLabel(file));
  if (built.diagnostics.hasErrors) throw new Error(`${label} no longer generates`);
  const p = plan(built.model, built.nameHints);
  const mod = async (f: string) =>
    (await import(pathToFileURL(path.join(dir, f)).href)) as Record<string, unknown>;
  const [descriptors, client, server] = await Promise.all([
    mod("descriptors.ts"),
    mod("client.ts"),
    mod("server.ts"),
  ]);

  const choices = new Map<
    ComplexDesc,
    ({ key: string; ref: NonNullable<ComplexType["fields"][number]["choice"]> } | undefined)[]
  >();
  for (const [t, names] of p.names.types) {
    if (t.kind !== "complex" || p.arrayItems.has(t)) continue;
    const chain = collectHierarchy(t);
    const refs = chain.flatMap((c, level) =>
      c.fields.map((f) =>
        f.choice
          ? { key: `${names.descriptor}/${level}.${f.choice.group}`, ref: f.choice }
          : undefined,
      ),
    );
    if (!refs.some(Boolean)) continue;
    const d = descriptors[names.descriptor] as ComplexDesc | undefined;
    if (!d || d.k !== "complex" || d.fields.length !== refs.length)
      throw new Error(
        `${label}: descriptor ${names.descriptor} does not line up with its model type`,
      );
    choices.set(d, refs);
  }

  const services = built.model.services.map((s): GoldenService => {
    const names = p.names.service(s);
    return {
      name: s.name,
      desc: descriptors[names.descriptor] as ServiceDesc,
      Client: client[names.client] as GoldenService["Client"],
      createHandler: server[names.handlerFactory] as GoldenService["createHandler"],
      methods: names.methods,
      wire: new Map(
        s.ports.map((port) => [
          port.name,
          new Map(port.binding.operations.map((bo) => [bo.operation.name, wireModes(bo)])),
        ]),
      ),
    };
  });
  return { services, choices };
}

/**
 * The contract between generated code and this runtime: its version, checked when generated code is
 * imported, and the client and implementation types mapped from a typed service descriptor.
 */
import type { CallOptions, ClientOptions } from "../client/options.js";
import type { OperationTypes, ServiceDesc, SoapHeaderForms } from "./operations.js";
import type { RequestContext } from "../server/context.js";

/**
 * The version of the contract between generated code and the runtime that this runtime reads: what
 * the descriptors say and which runtime functions generated code calls. Generated code states the
 * version it was generated for (`generatedFor`), and importing it with another runtime fails.
 */
export const CONTRACT_VERSION = 9;

/**
 * Called at the top of every generated descriptors.ts with the contract version its generator
 * wrote: code generated for another version than this runtime reads fails at import, saying how to
 * bring the two together, rather than later with a confusing error.
 */
export function generatedFor(version: number): void {
  if (version === CONTRACT_VERSION) return;
  const newer = version > CONTRACT_VERSION ? "a newer" : "an older";
  throw new Error(
    `This code was generated for contract version ${version} of @wsdl-tsgen/runtime, but the ` +
      `installed @wsdl-tsgen/runtime reads contract version ${CONTRACT_VERSION} (the code comes ` +
      `from ${newer} wsdl-tsgen). Regenerate it with the wsdl-tsgen that goes with this runtime ` +
      "(`npx wsdl-tsgen generate <wsdl> --out <dir>`), or install the @wsdl-tsgen/runtime that " +
      "goes with the wsdl-tsgen it was generated with " +
      "(`npm install @wsdl-tsgen/runtime@<version>`).",
  );
}

/**
 * Any typed service descriptor (`any` operations: an interface of operations is no `unknown`
 * record, and the mapped types below read the operations from the descriptor's own type).
 */
export type AnyServiceDesc = ServiceDesc<any, string, SoapHeaderForms | undefined>;

/** The operations (`OperationTypes` by method name) of a service descriptor's type. */
type OperationsOfDesc<S> =
  S extends ServiceDesc<infer Ops, string, SoapHeaderForms | undefined> ? Ops : never;

type PortOf<S> = S extends ServiceDesc<any, infer P, SoapHeaderForms | undefined> ? P : never;

type HeadersOf<S> = S extends ServiceDesc<any, string, infer H> ? H : undefined;

/** The options a service's client is built with: its ports, its typed SOAP headers as sent. */
export type ClientOptionsOf<S> =
  HeadersOf<S> extends SoapHeaderForms
    ? ClientOptions<PortOf<S>, HeadersOf<S>["input"]>
    : ClientOptions<PortOf<S>>;

/** The options of one call: its typed SOAP headers, sent and received. */
export type CallOptionsOf<S> =
  HeadersOf<S> extends SoapHeaderForms
    ? CallOptions<HeadersOf<S>["input"], HeadersOf<S>["value"]>
    : CallOptions;

/** What an implementation receives besides its input: the typed SOAP headers received and sent. */
export type RequestContextOf<S> =
  HeadersOf<S> extends SoapHeaderForms
    ? RequestContext<HeadersOf<S>["value"], HeadersOf<S>["input"]>
    : RequestContext;

type Ops<S> = OperationsOfDesc<S>;
type Op<S, M extends keyof Ops<S>> = Ops<S>[M] & OperationTypes;

/** The method names of a service descriptor's type (`"getMessages" | …`). */
export type MethodOf<S extends AnyServiceDesc> = keyof Ops<S> & string;

/** The `OperationTypes` of the method `M` of the service `S` describes. */
export type OperationOf<S extends AnyServiceDesc, M extends MethodOf<S>> = Op<S, M>;

/**
 * A client of the service `S` describes (`typeof ApiDesc`): one async method per operation, with
 * the operation's documentation, sent over the port chosen at construction.
 */
export type Client<S extends AnyServiceDesc> = {
  /** The port this client sends to. */
  readonly port: PortOf<S>;
} & {
  readonly [M in keyof Ops<S>]: (
    input: Op<S, M>["input"],
    options?: CallOptionsOf<S>,
  ) => Promise<Op<S, M>["output"]>;
};

/**
 * The class of a service's client (`new ApiClient(options)`). Generated code names its client and
 * options types (`C`, `O`) rather than mapping them from `S`: a user's tsc then reads them as
 * written; the generator's tests check that they agree with the descriptor.
 */
export interface ClientClass<
  S extends AnyServiceDesc,
  C extends object = Client<S>,
  O extends object = ClientOptionsOf<S>,
> {
  /** Uses the port `options.port`, by default the first SOAP 1.1 port of the service. */
  new (options?: O): C;
  readonly prototype: C;
}

/**
 * The implementation of the service `S` describes: one method per operation, receiving the typed
 * input and request context and returning the typed result (or a promise of it). Throw `SoapFault`
 * with code "Client" or "Server" to answer with a fault.
 */
export type Implementation<S extends AnyServiceDesc> = {
  readonly [M in keyof Ops<S>]: (
    input: Op<S, M>["serverInput"],
    context: RequestContextOf<S>,
  ) => Op<S, M>["serverOutput"] | Promise<Op<S, M>["serverOutput"]>;
};

/**
 * An implementation of some of the operations of the service `S` describes: the methods of
 * `Implementation<S>`, each optional. Each one left out answers the Server fault of
 * `notImplemented` on every binding.
 */
export type PartialImplementation<S extends AnyServiceDesc> = Partial<Implementation<S>>;

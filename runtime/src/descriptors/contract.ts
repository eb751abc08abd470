/**
 * The contract between generated code and this runtime: its version, checked when generated code is
 * imported, and what the client's and the implementation's types (client/contract.ts,
 * server/contract.ts) read from a typed service descriptor.
 */
import type { OperationTypes, ServiceDesc, SoapHeaderForms } from "./operations.js";

/**
 * The version of the contract between generated code and the runtime that this runtime reads: what
 * the descriptors say and which runtime functions generated code calls. Generated code states the
 * version it was generated for (`generatedFor`), and importing it with another runtime fails.
 */
export const CONTRACT_VERSION = 10;

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
export type OperationsOfDesc<S> =
  S extends ServiceDesc<infer Ops, string, SoapHeaderForms | undefined> ? Ops : never;

/** The port names of a service descriptor's type. */
export type PortOf<S> =
  S extends ServiceDesc<any, infer P, SoapHeaderForms | undefined> ? P : never;

/** The typed SOAP header forms of a service descriptor's type, or `undefined`. */
export type HeadersOf<S> = S extends ServiceDesc<any, string, infer H> ? H : undefined;

/** Short names for the mapped types: the operations, and the operation `M` with its types. */
export type Ops<S> = OperationsOfDesc<S>;
export type Op<S, M extends keyof Ops<S>> = Ops<S>[M] & OperationTypes;

/** The method names of a service descriptor's type (`"getMessages" | …`). */
export type MethodOf<S extends AnyServiceDesc> = keyof Ops<S> & string;

/** The `OperationTypes` of the method `M` of the service `S` describes. */
export type OperationOf<S extends AnyServiceDesc, M extends MethodOf<S>> = Op<S, M>;

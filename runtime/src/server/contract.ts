/**
 * The server's half of the contract with generated code: the implementation and request context
 * types mapped from a typed service descriptor.
 */
import type { RequestContext } from "./context.js";
import type { OperationTypes, SoapHeaderForms } from "../descriptors/operations.js";
import type { AnyServiceDesc, HeadersOf, Op, Ops } from "../descriptors/contract.js";

/** What an implementation receives besides its input: the typed SOAP headers received and sent. */
export type RequestContextOf<S> =
  HeadersOf<S> extends SoapHeaderForms
    ? RequestContext<HeadersOf<S>["value"], HeadersOf<S>["input"]>
    : RequestContext;

/**
 * The implementation of the service `S` describes: one method per operation, receiving the typed
 * input and request context and returning the typed result (or a promise of it; see `ResultOf`).
 * Throw `SoapFault` with code "Client" or "Server" to answer with a fault.
 */
export type Implementation<S extends AnyServiceDesc> = {
  readonly [M in keyof Ops<S>]: (
    input: Op<S, M>["serverInput"],
    context: RequestContextOf<S>,
  ) => ResultOf<Op<S, M>> | Promise<ResultOf<Op<S, M>>>;
};

/**
 * What an implementation may return for an operation: its result, or, where the result is, or
 * wraps, one repeated element, an iterable of its items, streamed as they come.
 */
export type ResultOf<O extends OperationTypes> =
  | O["serverOutput"]
  | (O extends { readonly serverItem: infer T } ? Iterable<T> | AsyncIterable<T> : never);

/**
 * An implementation of some of the operations of the service `S` describes: the methods of
 * `Implementation<S>`, each optional. Each one left out answers the Server fault of
 * `notImplemented` on every binding.
 */
export type PartialImplementation<S extends AnyServiceDesc> = Partial<Implementation<S>>;

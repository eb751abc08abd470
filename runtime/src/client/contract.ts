/**
 * The client's half of the contract with generated code: the client and options types mapped from
 * a typed service descriptor.
 */
import type { CallOptions, ClientOptions } from "./options.js";
import type { SoapHeaderForms } from "../descriptors/operations.js";
import type { AnyServiceDesc, HeadersOf, Op, Ops, PortOf } from "../descriptors/contract.js";

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
} & StreamsOf<S>;

/** The methods of the operations whose result may be streamed (that have an `item`). */
export type StreamedMethodOf<S extends AnyServiceDesc> = {
  [M in keyof Ops<S>]: Ops<S>[M] extends { readonly item: unknown } ? M : never;
}[keyof Ops<S>];

/**
 * A client's `stream`: one method per operation whose result is, or wraps, one repeated element,
 * iterating its items as they arrive; nothing when no operation's result is.
 */
export type StreamsOf<S extends AnyServiceDesc> = [StreamedMethodOf<S>] extends [never]
  ? unknown
  : {
      readonly stream: {
        readonly [M in StreamedMethodOf<S>]: (
          input: Op<S, M>["input"],
          options?: CallOptionsOf<S>,
        ) => AsyncIterable<Op<S, M>["item"]>;
      };
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

/**
 * The class of a generated client: `clientClass(ApiDesc)` is what generated client.ts exports, one
 * method per entry of the descriptor's `methods`, typed by the descriptor (`Client`).
 */
import { ServiceClient } from "./client.js";
import { type CallOptions, type ClientOptions } from "./options.js";
import type { AnyServiceDesc } from "../descriptors/contract.js";
import type { Client, ClientClass, ClientOptionsOf } from "./contract.js";

type StreamMethod = (input: unknown, options?: CallOptions) => AsyncIterable<unknown>;

/** The client class of the service `desc` describes. */
export function clientClass<
  S extends AnyServiceDesc,
  C extends object = Client<S>,
  O extends object = ClientOptionsOf<S>,
>(desc: S): ClientClass<S, C, O> {
  // Every method: the generated types name those whose result may be streamed; iterating another
  // fails with what it is (see client/stream.ts).
  const streamedMethods = Object.entries<string>(desc.methods);
  class GeneratedClient {
    readonly #client: ServiceClient;

    #stream: Readonly<Record<string, StreamMethod>> | undefined;

    constructor(options: ClientOptions = {}) {
      this.#client = new ServiceClient(desc, options);
    }

    /** One method per operation, iterating its result's items as they arrive (made when asked). */
    get stream(): Readonly<Record<string, StreamMethod>> {
      const client = this.#client;
      return (this.#stream ??= Object.freeze(
        Object.fromEntries(
          streamedMethods.map(([method, operation]) => [
            method,
            (input: unknown, o?: CallOptions) => client.stream(operation, input, o),
          ]),
        ),
      ));
    }

    get port(): string {
      return this.#client.port.name;
    }

    static {
      // In the class body, so that the methods reach #client.
      for (const [method, operation] of Object.entries<string>(desc.methods)) {
        const call = function (this: GeneratedClient, input: unknown, options?: CallOptions) {
          return this.#client.call(operation, input, options);
        };
        Object.defineProperty(call, "name", { value: method });
        Object.defineProperty(GeneratedClient.prototype, method, {
          value: call,
          writable: true,
          configurable: true,
        });
      }
    }
  }
  Object.defineProperty(GeneratedClient, "name", { value: `${desc.name}Client` });
  return GeneratedClient as unknown as ClientClass<S, C, O>;
}

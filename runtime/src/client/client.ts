/**
 * The generic client a generated client class delegates to: it sends each operation over the
 * chosen port's binding, SOAP (soap.ts) or HTTP GET and POST (http.ts), through one Caller.
 */
import { OperationUnavailableError } from "../errors.js";
import type { OperationDesc, PortDesc, ServiceDesc } from "../descriptors/operations.js";
import { keepingAttachments } from "./attachments.js";
import { Caller } from "./caller.js";
import { callHttp } from "./http.js";
import type { CallOptions, ClientOptions } from "./options.js";
import { callSoap } from "./soap.js";
import { streamCall } from "./stream.js";

/** Sends the operations of one service over the port chosen at construction. */
export class ServiceClient {
  readonly port: PortDesc;
  readonly endpoint: string;
  private readonly caller: Caller;

  constructor(service: ServiceDesc, options: ClientOptions = {}) {
    this.caller = new Caller(service, options);
    this.port = this.caller.port;
    this.endpoint = this.caller.endpoint;
  }

  /** Calls operation `name` with its typed input and resolves to its typed result. */
  async call(name: string, input: unknown, callOptions: CallOptions = {}): Promise<unknown> {
    const op: OperationDesc | undefined = this.port.operations[name];
    if (!op) throw new OperationUnavailableError(name, this.port.name);
    const sent =
      op.kind === "soap"
        ? await callSoap(this.caller, name, op, input, callOptions)
        : await callHttp(this.caller, name, op, input, callOptions);
    // Whatever the protocol, a package's temporary files (spooled attachments) are removed when
    // the answer fails or its result holds none of them.
    return keepingAttachments(sent.res.spool, () => sent.answer());
  }

  /**
   * Streams operation `name`'s result: its items as they arrive (client/stream.ts). Nothing is sent
   * before the first `next()`.
   */
  stream(name: string, input: unknown, callOptions: CallOptions = {}): AsyncIterable<unknown> {
    const op: OperationDesc | undefined = this.port.operations[name];
    if (!op) {
      const error = new OperationUnavailableError(name, this.port.name);
      return (async function* () {
        throw error;
      })();
    }
    return streamCall(this.caller, name, op, input, callOptions);
  }
}

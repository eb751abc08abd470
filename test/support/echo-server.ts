/**
 * The generated server of fixtures/encoded-arrays on loopback, answering each request with itself.
 */
import {
  createEchoServiceHandler,
  type EchoRequest,
} from "../../generated-samples/encoded-arrays/index.js";
import { listen, type Loopback } from "./loopback.js";

export interface EchoServer extends Loopback {
  /** The requests its implementation was handed, in order. */
  readonly arrived: EchoRequest[];
}

export async function echoServer(): Promise<EchoServer> {
  const arrived: EchoRequest[] = [];
  const lb = await listen(
    createEchoServiceHandler({
      echo(request) {
        arrived.push(request);
        return request;
      },
    }),
  );
  return { ...lb, arrived };
}

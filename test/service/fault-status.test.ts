/** A fault an implementation throws answers 500, as ASMX does, unless it names another 4xx/5xx status, on every binding. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiClient,
  createApiHandler,
  HttpBindingError,
  SoapFault,
  type ApiPortName,
  type ApiService,
} from "../../generated-samples/message-service/index.js";
import { listen, type Loopback } from "../support/loopback.js";

let lb: Loopback;
beforeAll(async () => {
  const service: ApiService = {
    getMessages: ({ email }) => {
      if (email === "limited")
        throw new SoapFault({ code: "Client", message: "Too many requests.", httpStatus: 429 });
      if (email === "odd")
        throw new SoapFault({ code: "Client", message: "Odd status.", httpStatus: 200 });
      throw new SoapFault({ code: "Client", message: "Invalid email or password." });
    },
    getMessagesInDateRange: () => [],
    deleteMessage: () => undefined,
  };
  lb = await listen(createApiHandler(service));
});
afterAll(() => lb.close());

const PORTS: readonly ApiPortName[] = ["ApiSoap", "ApiSoap12", "ApiHttpGet", "ApiHttpPost"];

describe("the HTTP status of a thrown fault", () => {
  for (const port of PORTS) {
    it(`over ${port}: 500 by default, the fault's own 4xx/5xx status when it names one, 500 for anything else`, async () => {
      const client = new ApiClient({ endpoint: `${lb.url}/api.asmx`, port });
      const statusOf = async (email: string) => {
        const e = await client.getMessages({ email, password: "p" }).catch((x: unknown) => x);
        if (e instanceof SoapFault) return e.httpStatus;
        if (e instanceof HttpBindingError) return e.status;
        throw e;
      };
      expect([await statusOf("someone"), await statusOf("limited"), await statusOf("odd")]).toEqual(
        [500, 429, 500],
      );
    });
  }
});

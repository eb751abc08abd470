/**
 * The runtime calls the implementation's methods by the names the service descriptor gives, and
 * builds the client class from it: no forwarding table or method is written out in generated code.
 */
import { describe, expect, it } from "vitest";
import {
  ApiClient,
  createApiHandler,
  SoapFault,
  type ApiService,
  type DeleteMessage,
} from "../../generated-samples/message-service/index.js";
import { listen } from "../support/loopback.js";

describe("createServiceHandler", () => {
  it("calls a class instance's methods with the instance as `this`", async () => {
    class Messages implements ApiService {
      readonly deleted: number[] = [];
      getMessages() {
        return [];
      }
      getMessagesInDateRange() {
        return undefined;
      }
      deleteMessage(input: DeleteMessage) {
        this.deleted.push(input.MessageId);
      }
    }
    const impl = new Messages();
    const s = await listen(createApiHandler(impl));
    try {
      const client = new ApiClient({ endpoint: `${s.url}/api.asmx`, port: "ApiSoap12" });
      await client.deleteMessage({ MessageId: 7 });
      expect(impl.deleted).toEqual([7]);
      expect(await client.getMessages({})).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it("answers a Server fault for a method the implementation lacks", async () => {
    const partial = { getMessages: () => [] } as unknown as ApiService;
    const s = await listen(createApiHandler(partial));
    try {
      const client = new ApiClient({ endpoint: `${s.url}/api.asmx` });
      const failed = await client.deleteMessage({ MessageId: 1 }).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(SoapFault);
      expect((failed as SoapFault).message).toBe("The operation DeleteMessage is not implemented.");
      expect((failed as SoapFault).code).toBe("soap:Server");
    } finally {
      await s.close();
    }
  });
});

describe("clientClass", () => {
  it("makes a class named after the service, with one prototype method per operation", () => {
    const client = new ApiClient({ port: "ApiHttpGet" });
    expect(client).toBeInstanceOf(ApiClient);
    expect(ApiClient.name).toBe("ApiClient");
    expect(client.port).toBe("ApiHttpGet");
    expect(Object.keys(client)).toEqual([]);
    const proto = Object.getOwnPropertyNames(ApiClient.prototype).filter(
      (n) => n !== "port" && n !== "stream",
    );
    expect(proto).toEqual([
      "constructor",
      "getMessages",
      "getMessagesInDateRange",
      "deleteMessage",
    ]);
    expect(client.getMessages.name).toBe("getMessages");
    // The streaming twins, made once when first asked for.
    expect(client.stream).toBe(client.stream);
    expect(Object.keys(client.stream)).toContain("getMessagesInDateRange");
  });

  it("refuses a port the service does not have", () => {
    expect(() => new ApiClient({ port: "Nope" as "ApiSoap" })).toThrow("unknown port 'Nope'");
  });
});

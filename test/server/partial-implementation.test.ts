/**
 * A partial implementation (`ApiPartialService`) is served without a cast, and each operation it
 * leaves out answers the not-implemented Server fault, naming the operation, on every binding;
 * a stub that throws `notImplemented` answers the same bytes.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  ApiClient,
  createApiHandler,
  HttpBindingError,
  SoapFault,
  type ApiContext,
  type ApiPartialService,
  type ApiPortName,
  type ApiService,
} from "../../generated-samples/message-service/index.js";
import { notImplemented, type RequestContext } from "../../runtime/src/index.js";
import { listen } from "../support/loopback.js";

const partial: ApiPartialService = {
  getMessages: () => [{ Id: 1, UserId: 2, DateArrived: "2024-01-05T10:00:00" }],
};

/** What a call rejects with, or "resolved". */
async function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => "resolved",
    (e: unknown) => e,
  );
}

const PORTS: readonly ApiPortName[] = ["ApiSoap", "ApiSoap12", "ApiHttpGet", "ApiHttpPost"];

/**
 * The answers to the operations the partial implementation lacks, over every port, as received:
 * status, content type and body.
 */
async function rawAnswers(url: string): Promise<string[]> {
  const out: string[] = [];
  for (const port of PORTS) {
    const client = new ApiClient({
      endpoint: url,
      port,
      trace: ({ response: r }) =>
        out.push(`${port} ${r?.status} ${r?.headers["content-type"]} ${r?.body}`),
    });
    await failure(client.deleteMessage({ MessageId: 1 }));
    await failure(
      client.getMessagesInDateRange({
        startDate: "2024-01-01T00:00:00",
        endDate: "2024-01-02T00:00:00",
      }),
    );
  }
  return out;
}

describe("a partial implementation", () => {
  it("has the full type's methods, each optional, and the per-service context type", () => {
    expectTypeOf<ApiPartialService>().toEqualTypeOf<Partial<ApiService>>();
    expectTypeOf<ApiService>().toExtend<ApiPartialService>();
    expectTypeOf<ApiPartialService>().not.toExtend<ApiService>();
    expectTypeOf<Parameters<ApiService["getMessages"]>[1]>().toEqualTypeOf<ApiContext>();
    expectTypeOf<ApiContext>().toEqualTypeOf<RequestContext>();
    // A method left out of a value declared `: ApiService` is still an error there.
    // @ts-expect-error: getMessagesInDateRange and deleteMessage are missing
    const full: ApiService = { getMessages: () => [] };
    void full;
  });

  for (const port of PORTS) {
    it(`answers the operations it lacks with the not-implemented fault over ${port}`, async () => {
      const s = await listen(createApiHandler(partial));
      try {
        const client = new ApiClient({ endpoint: `${s.url}/api.asmx`, port });
        expect(await client.getMessages({ email: "a", password: "b" })).toHaveLength(1);
        const calls = {
          DeleteMessage: client.deleteMessage({ MessageId: 1 }),
          GetMessagesInDateRange: client.getMessagesInDateRange({
            startDate: "2024-01-01T00:00:00",
            endDate: "2024-01-02T00:00:00",
          }),
        };
        for (const [operation, call] of Object.entries(calls)) {
          const e = await failure(call);
          const message = `The operation ${operation} is not implemented.`;
          if (port === "ApiSoap" || port === "ApiSoap12") {
            expect(e).toBeInstanceOf(SoapFault);
            const f = e as SoapFault;
            expect(f.message).toBe(message);
            expect(f.code).toBe(port === "ApiSoap" ? "soap:Server" : "soap:Receiver");
            expect(f.httpStatus).toBe(500);
            expect(f.soapVersion).toBe(port === "ApiSoap" ? "1.1" : "1.2");
          } else {
            expect(e).toBeInstanceOf(HttpBindingError);
            const h = e as HttpBindingError;
            expect(h.status).toBe(500);
            expect(h.body).toBe(message);
            expect(h.message).toBe(`HTTP 500: ${message}`);
          }
        }
      } finally {
        await s.close();
      }
    });
  }

  it("answers byte for byte as a stub that throws notImplemented", async () => {
    const stub: ApiService = {
      getMessages: () => [],
      deleteMessage: () => {
        throw notImplemented("DeleteMessage");
      },
      getMessagesInDateRange: () => {
        throw notImplemented("GetMessagesInDateRange");
      },
    };
    const logged: unknown[] = [];
    const a = await listen(createApiHandler(partial));
    const b = await listen(createApiHandler(stub, { logger: (m) => logged.push(m) }));
    try {
      const lacking = await rawAnswers(`${a.url}/api.asmx`);
      expect(lacking).toHaveLength(8);
      expect(lacking[0]).toContain("<faultstring>The operation DeleteMessage is not implemented.");
      expect(lacking[3]).toContain('<soap:Text xml:lang="en">The operation GetMessagesInDateRange');
      expect(lacking[4]).toBe(
        "ApiHttpGet 500 text/plain; charset=utf-8 The operation DeleteMessage is not implemented.",
      );
      expect(await rawAnswers(`${b.url}/api.asmx`)).toEqual(lacking);
      expect(logged).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

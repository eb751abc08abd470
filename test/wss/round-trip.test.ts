/**
 * Our client and our server, both signing and verifying (x509Security on each side), over SOAP 1.1
 * and 1.2; the server's refusal reaches the client as the SoapFault it sent.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ApiClient,
  createApiHandler,
  SoapFault,
} from "../../generated-samples/message-service/index.js";
import { x509Security } from "../../runtime/src/wss/index.js";
import { rejection, serverPerTest } from "../support/loopback.js";
import { makeKeys, opensslMissing, type TestKeys } from "../support/wss-keys.js";

const missing = opensslMissing();
if (missing) console.log(`wss: ${missing}; the signed round trips are skipped.`);
const servers = serverPerTest(afterEach);

describe.skipIf(missing !== undefined)("signed round trips", () => {
  let client: TestKeys;
  let server: TestKeys;
  beforeAll(() => {
    client = makeKeys("rt-client");
    server = makeKeys("rt-server", { ec: true });
  });

  it.each(["ApiSoap", "ApiSoap12"] as const)(
    "%s: signed both ways, verified both ways",
    async (port) => {
      const impl = {
        getMessages: (input: { email?: string }, ctx: { signer?: { subject: string } }) => [
          {
            Id: 1,
            UserId: 2,
            DateArrived: "2024-01-01T00:00:00Z",
            Sender: `${input.email} ${ctx.signer?.subject}`,
          },
        ],
        getMessagesInDateRange: () => [],
        deleteMessage: () => undefined,
      };
      const handler = createApiHandler(impl, {
        security: x509Security({
          sign: { key: server.key, cert: server.cert },
          verify: { trust: [client.cert] },
        }),
      });
      const lb = await servers.serve(handler);
      const signedCalls = new ApiClient({
        endpoint: `${lb.url}/api.asmx`,
        port,
        security: x509Security({
          sign: { key: client.key, cert: client.cert },
          verify: { trust: [server.cert] },
        }),
      });
      const result = await signedCalls.getMessages({ email: "a@b", password: "p" });
      expect(result?.map((m) => m?.Sender)).toEqual(["a@b CN=rt-client"]);
      // Unsigned, the call gets the server's refusal as a fault.
      const unsigned = new ApiClient({ endpoint: `${lb.url}/api.asmx`, port });
      const fault = await rejection(unsigned.getMessages({ email: "a", password: "p" }), SoapFault);
      expect(fault.message).toBe(
        "The security of the request could not be verified: the message is not signed.",
      );
    },
  );
});

describe.skipIf(missing !== undefined)("security options that cannot go together", () => {
  let keys: TestKeys;
  beforeAll(() => {
    keys = makeKeys("rt-options");
  });

  it("a client refuses wsSecurity beside security: a message carries one Security header", () => {
    const make = () =>
      new ApiClient({
        endpoint: "http://127.0.0.1:1/api.asmx",
        wsSecurity: { username: "u", password: "p" },
        security: x509Security({ sign: { key: keys.key, cert: keys.cert } }),
      });
    expect(make).toThrow(/wsSecurity and security each write a wsse:Security header/);
  });

  it("a server that only signs does not claim to understand a Security header it never checks", () => {
    const signing = x509Security({ sign: { key: keys.key, cert: keys.cert } });
    const verifying = x509Security({ verify: { trust: [keys.cert] } });
    const WSSE =
      "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";
    expect(signing.understands(WSSE, "Security")).toBe(false);
    expect(verifying.understands(WSSE, "Security")).toBe(true);
  });
});

/**
 * `trace`: every HTTP exchange of a call, as sent and received (the debugging view zeep's history
 * plugin and node-soap's lastRequest give): on success, on a fault, over HTTP GET, and when no
 * response comes.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  ApiClient,
  SoapFault,
  TransportError,
} from "../../generated-samples/message-service/index.js";
import { ApiDesc } from "../../generated-samples/message-service/descriptors.js";
import { OperationUnavailableError, type Exchange } from "../../runtime/src/index.js";
import { ServiceClient } from "../../runtime/src/internal.js";
import { rejection, serverPerTest } from "../support/loopback.js";

const ALICE = { email: "alice@example.com", password: "alice-pass" };
const servers = serverPerTest(afterEach);

const EMPTY_RESULT =
  '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetMessagesResponse xmlns="http://api.example.com/messages/"><GetMessagesResult /></GetMessagesResponse></soap:Body></soap:Envelope>';
const FAULT =
  '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Invalid email or password.</faultstring></soap:Fault></soap:Body></soap:Envelope>';

describe("trace", () => {
  it("gives a SOAP call's request and response as they went, then its fault", async () => {
    let fault = false;
    const server = await servers.serve((req, res) => {
      req.resume();
      req.on("end", () =>
        res
          .writeHead(fault ? 500 : 200, {
            "Content-Type": "text/xml; charset=utf-8",
            "X-Trace": "t1",
          })
          .end(fault ? FAULT : EMPTY_RESULT),
      );
    });
    const seen: Exchange[] = [];
    const client = new ApiClient({
      endpoint: `${server.url}/api.asmx`,
      trace: (x) => seen.push(x),
    });
    expect(await client.getMessages(ALICE)).toEqual([]);
    fault = true;
    await rejection(client.getMessages(ALICE), SoapFault);
    expect(seen).toHaveLength(2);
    const [ok, failed] = seen as [Exchange, Exchange];
    expect(ok).toMatchObject({ port: "ApiSoap", method: "POST", url: `${server.url}/api.asmx` });
    expect(ok.operation.toLowerCase()).toBe("getmessages");
    expect(ok.requestHeaders).toMatchObject({
      "Content-Type": "text/xml; charset=utf-8",
      SOAPAction: '"http://api.example.com/messages/GetMessages"',
    });
    expect(ok.requestBody).toContain("<password>alice-pass</password>");
    expect(ok.response).toMatchObject({ status: 200, body: EMPTY_RESULT });
    expect(ok.response!.headers["x-trace"]).toBe("t1");
    expect(ok.error).toBeUndefined();
    expect(ok.durationMs).toBeGreaterThanOrEqual(0);
    expect(failed.response).toMatchObject({ status: 500, body: FAULT });
  });

  it("an operation the port lacks rejects with OperationUnavailableError", async () => {
    const client = new ServiceClient(ApiDesc, { endpoint: "http://127.0.0.1:9/api.asmx" });
    const e = await rejection(client.call("Nope", {}), OperationUnavailableError);
    expect([e.operation, e.port, e.message]).toEqual([
      "Nope",
      "ApiSoap",
      "operation Nope is not available on port ApiSoap; choose a port that has it",
    ]);
  });

  it("gives an HTTP GET request's URL with its query, and an empty request body", async () => {
    const server = await servers.serve((_req, res) =>
      res
        .writeHead(200, { "Content-Type": "text/xml; charset=utf-8" })
        .end('<?xml version="1.0"?><ArrayOfMessages xmlns="http://api.example.com/messages/" />'),
    );
    const seen: Exchange[] = [];
    await new ApiClient({
      endpoint: `${server.url}/api.asmx`,
      port: "ApiHttpGet",
      trace: (x) => seen.push(x),
    }).getMessages(ALICE);
    expect(seen[0]).toMatchObject({
      port: "ApiHttpGet",
      method: "GET",
      url: `${server.url}/api.asmx/GetMessages?email=alice%40example.com&password=alice-pass`,
      requestBody: "",
    });
  });

  it("gives the error when no response comes; an error the trace throws rejects the call", async () => {
    const closed = await servers.serve(() => {});
    const url = `${closed.url}/api.asmx`;
    await closed.close();
    const seen: Exchange[] = [];
    await rejection(
      new ApiClient({ endpoint: url, trace: (x) => seen.push(x) }).getMessages(ALICE),
      TransportError,
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]!.response).toBeUndefined();
    expect(seen[0]!.error).toBeInstanceOf(Error);

    const server = await servers.serve((req, res) => {
      req.resume();
      req.on("end", () =>
        res.writeHead(200, { "Content-Type": "text/xml; charset=utf-8" }).end(EMPTY_RESULT),
      );
    });
    const failing = new ApiClient({
      endpoint: `${server.url}/api.asmx`,
      trace: () => {
        throw new Error("log full");
      },
    });
    await expect(failing.getMessages(ALICE)).rejects.toThrow("log full");
  });
});

describe("trace and credentials", () => {
  const answer = async () =>
    servers.serve((req, res) => {
      req.resume();
      req.on("end", () =>
        res.writeHead(200, { "Content-Type": "text/xml; charset=utf-8" }).end(EMPTY_RESULT),
      );
    });

  it("redacts the Authorization header and the WS-Security password, unless asked not to", async () => {
    const server = await answer();
    const endpoint = `http://bob:b0b-secret@${server.url.slice(7)}/api.asmx`;
    const wsSecurity = { username: "ws-user", password: "ws<secret>" };
    const seen: Exchange[] = [];
    await new ApiClient({ endpoint, wsSecurity, trace: (x) => seen.push(x) }).getMessages(ALICE);
    const shown: Exchange[] = [];
    await new ApiClient({
      endpoint,
      wsSecurity,
      traceCredentials: true,
      trace: (x) => shown.push(x),
    }).getMessages(ALICE);
    const [redacted, given] = [seen[0]!, shown[0]!];
    expect(redacted.requestHeaders["Authorization"]).toBe("[redacted]");
    expect(given.requestHeaders["Authorization"]).toBe(
      `Basic ${Buffer.from("bob:b0b-secret").toString("base64")}`,
    );
    expect(redacted.requestBody).toMatch(
      /<wsse:Password Type="[^"]+">\[redacted\]<\/wsse:Password>/,
    );
    expect(redacted.requestBody).not.toContain("secret");
    expect(redacted.requestBody).toContain("<wsse:Username>ws-user</wsse:Username>");
    expect(given.requestBody).toContain(">ws&lt;secret&gt;</wsse:Password>");
    // Only the credentials differ (text passwords, no timestamp: nothing else varies).
    expect(redacted.requestBody.replace("[redacted]", "ws&lt;secret&gt;")).toBe(given.requestBody);
    expect({ ...redacted.requestHeaders, Authorization: "" }).toEqual({
      ...given.requestHeaders,
      Authorization: "",
    });
  });
});

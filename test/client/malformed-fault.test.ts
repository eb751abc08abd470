/**
 * A fault that lacks its version's code or reason: read from the other version's names when it has
 * them (a SOAP 1.1 fault with 1.2-style Code and Reason, as a gSOAP server class sends), keeping
 * the text; else a ResponseFormatError that says what is missing, never a SoapFault with empty
 * fields.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  ApiClient,
  ResponseFormatError,
  SoapFault,
} from "../../generated-samples/message-service/index.js";
import { rejection, serverPerTest } from "../support/loopback.js";

const ALICE = { email: "alice@example.com", password: "alice-pass" };
const ENV11 = "http://schemas.xmlsoap.org/soap/envelope/";
const ENV12 = "http://www.w3.org/2003/05/soap-envelope";
const servers = serverPerTest(afterEach);

/** A client of a server that answers every request with a 500 holding `fault`. */
async function answering(fault: string, version: "1.1" | "1.2"): Promise<ApiClient> {
  const ns = version === "1.1" ? ENV11 : ENV12;
  const type = version === "1.1" ? "text/xml" : "application/soap+xml";
  const server = await servers.serve((req, res) => {
    req.resume();
    res.writeHead(500, { "Content-Type": `${type}; charset=utf-8` });
    res.end(
      `<?xml version="1.0"?><s:Envelope xmlns:s="${ns}"><s:Body><s:Fault>${fault}</s:Fault></s:Body></s:Envelope>`,
    );
  });
  const port = version === "1.1" ? "ApiSoap" : "ApiSoap12";
  return new ApiClient({ endpoint: `${server.url}/api.asmx`, port });
}

describe("a fault missing its code or reason", () => {
  it("SOAP 1.1 with 1.2-style Code and Reason: read from them, text kept", async () => {
    const client = await answering(
      '<s:Code><s:Value>s:Sender</s:Value></s:Code><s:Reason><s:Text xml:lang="en">Invalid credentials</s:Text></s:Reason>',
      "1.1",
    );
    const e = await rejection(client.getMessages(ALICE), SoapFault);
    expect([e.code, e.message, e.soapVersion, e.httpStatus]).toEqual([
      "s:Sender",
      "Invalid credentials",
      "1.1",
      500,
    ]);
  });

  it("SOAP 1.2 with 1.1-style faultcode and faultstring: read from them", async () => {
    const client = await answering(
      "<faultcode>s:Receiver</faultcode><faultstring>Database down</faultstring>",
      "1.2",
    );
    const e = await rejection(client.getMessages(ALICE), SoapFault);
    expect([e.code, e.message, e.soapVersion]).toEqual(["s:Receiver", "Database down", "1.2"]);
  });

  it("with neither: a ResponseFormatError naming what is missing, and the body", async () => {
    const body11 = await answering("<faultcode>s:Client</faultcode>", "1.1");
    const e = await rejection(body11.getMessages(ALICE), ResponseFormatError);
    expect(e.message).toBe(
      "the response's SOAP 1.1 Fault has no faultstring; expected a fault code and a reason",
    );
    expect(e.status).toBe(500);
    expect(e.body).toContain("<faultcode>s:Client</faultcode>");
    const body12 = await answering("<s:Detail/>", "1.2");
    const e12 = await rejection(body12.getMessages(ALICE), ResponseFormatError);
    expect(e12.message).toBe(
      "the response's SOAP 1.2 Fault has no Code/Value and no Reason/Text; expected a fault code and a reason",
    );
  });
});

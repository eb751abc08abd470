/**
 * Multi-part document/literal (fixtures/multipart): the generated client and server put each part's
 * element directly in the SOAP Body, in part order, with no wrapper, over SOAP 1.1 and SOAP 1.2; the
 * typed input and result have one property per part, named after the part.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ShippingClient,
  XsdDateTime,
  createShippingHandler,
  type ShipRequest,
  type ShipRequestInput,
} from "../../generated-samples/multipart/index.js";
import { loadWsdl } from "../../src/generate.js";
import { soapBop } from "../support/binding-operations.js";
import { listen, type Loopback } from "../support/loopback.js";

let lb: Loopback;
let arrived: ShipRequest[] = [];
beforeAll(async () => {
  lb = await listen(
    createShippingHandler({
      ship(input) {
        arrived.push(input);
        return {
          quote: { Price: input.parcel.Weight, Carrier: input.to },
          tracking: 9007199254740993n,
          stamp: { by: input.deadline === null ? "nobody" : "clerk" },
        };
      },
    }),
  );
});
afterAll(() => lb.close());

/** A client on `port` that records the request bodies it sends. */
function recordingClient(port: "ShippingSoap" | "ShippingSoap12") {
  const sent: string[] = [];
  const client = new ShippingClient({
    endpoint: `${lb.url}/shipping`,
    port,
    fetch: async (url, init) => {
      sent.push(String(init?.body));
      return fetch(url, init);
    },
  });
  return { client, sent };
}

const input: ShipRequestInput = {
  parcel: { Weight: "12.500", Fragile: true },
  to: "Zürich & <Basel>",
  deadline: "2024-06-01T17:00:00.1234567+02:00",
};

describe("multi-part document/literal", () => {
  it("reads each part as its element, the typed values one property per part", async () => {
    const r = await loadWsdl("fixtures/multipart/multipart.wsdl");
    expect(r.diagnostics).toEqual([]);
    const bop = soapBop(r.model!.services[0]!.ports[0]!.binding.operations[0]);
    expect(bop.soapInput.kind).toBe("parts");
    const parts = bop.soapInput.kind === "parts" ? bop.soapInput.parts : [];
    expect(parts.map((p) => [p.propertyName, p.name.ns, p.name.local])).toEqual([
      ["parcel", "urn:example:shipping", "Parcel"],
      ["to", "urn:example:shipping", "Destination"],
      ["deadline", "urn:example:shipping", "Deadline"],
    ]);
    expect(bop.operation.result.kind).toBe("object");
  });

  for (const port of ["ShippingSoap", "ShippingSoap12"] as const) {
    it(`round-trips over ${port}, the parts in order directly in the Body`, async () => {
      arrived = [];
      const { client, sent } = recordingClient(port);
      const result = await client.ship(input);
      expect(result).toEqual({
        quote: { Price: "12.500", Carrier: "Zürich & <Basel>" },
        tracking: 9007199254740993n,
        stamp: { by: "clerk" },
      });
      expect(arrived).toHaveLength(1);
      expect(arrived[0]!.parcel).toEqual({ Weight: "12.500", Fragile: true });
      expect(arrived[0]!.to).toBe("Zürich & <Basel>");
      expect(arrived[0]!.deadline).toBeInstanceOf(XsdDateTime);
      expect(arrived[0]!.deadline?.lexical).toBe("2024-06-01T17:00:00.1234567+02:00");
      const body = /<soap:Body>(.*)<\/soap:Body>/s.exec(sent[0]!)![1]!;
      expect(body).toBe(
        '<Parcel xmlns="urn:example:shipping"><Weight>12.500</Weight><Fragile>true</Fragile></Parcel>' +
          '<Destination xmlns="urn:example:shipping">Zürich &amp; &lt;Basel&gt;</Destination>' +
          '<Deadline xmlns="urn:example:shipping">2024-06-01T17:00:00.1234567+02:00</Deadline>',
      );
      expect(sent[0]).toContain(
        port === "ShippingSoap"
          ? "http://schemas.xmlsoap.org/soap/envelope/"
          : "http://www.w3.org/2003/05/soap-envelope",
      );
    });
  }

  it("carries a nil part as xsi:nil", async () => {
    arrived = [];
    const { client, sent } = recordingClient("ShippingSoap12");
    expect((await client.ship({ ...input, deadline: null })).stamp).toEqual({ by: "nobody" });
    expect(arrived[0]!.deadline).toBeNull();
    expect(sent[0]).toContain('<Deadline xmlns="urn:example:shipping" xsi:nil="true" />');
  });

  it("answers a request that lacks a part with a Client fault naming it", async () => {
    const res = await fetch(`${lb.url}/shipping`, {
      method: "POST",
      headers: { "Content-Type": "text/xml", SOAPAction: '"urn:example:shipping#Ship"' },
      body: '<Envelope xmlns="http://schemas.xmlsoap.org/soap/envelope/"><Body><Parcel xmlns="urn:example:shipping"><Weight>1</Weight></Parcel><Deadline xmlns="urn:example:shipping">2024-06-01T00:00:00Z</Deadline></Body></Envelope>',
    });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).toContain("<faultcode>soap:Client</faultcode>");
    expect(text).toContain("Missing required element Destination.");
  });
});

/** The client's mtom option where it cannot hold: beside X.509 security, with a threshold that is no size. */
import { describe, expect, it } from "vitest";
import { DocumentsClient } from "../../generated-samples/documents/index.js";

const security = { secureRequest: (envelope: string) => envelope, checkResponse: () => {} };

describe("the client's mtom option", () => {
  it("is refused beside security, whose signature would not cover the attachments", () => {
    expect(
      () => new DocumentsClient({ endpoint: "http://127.0.0.1:1/", mtom: true, security }),
    ).toThrow(/expected one of security and mtom/);
    // The port's policy asks for MTOM over SOAP 1.2: turned off, security is taken.
    expect(
      () =>
        new DocumentsClient({ endpoint: "http://127.0.0.1:1/", port: "DocumentsSoap12", security }),
    ).toThrow(/expected one of security and mtom/);
    expect(
      () =>
        new DocumentsClient({
          endpoint: "http://127.0.0.1:1/",
          port: "DocumentsSoap12",
          mtom: false,
          security,
        }),
    ).not.toThrow();
  });

  it("refuses a threshold that is no size when a request is written", async () => {
    const client = new DocumentsClient({
      endpoint: "http://127.0.0.1:1/",
      mtom: { threshold: Number.NaN },
    });
    await expect(client.download({ Id: "x" })).rejects.toThrow(
      /the mtom threshold NaN is not a size/,
    );
  });
});

/** The mtom options where they cannot hold: beside signing, with a threshold that is no size. */
import { describe, expect, it } from "vitest";
import {
  createDocumentsHandler,
  DocumentsClient,
} from "../../generated-samples/documents/index.js";

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

  it("refuses a threshold that is no size when the client is made", () => {
    expect(
      () =>
        new DocumentsClient({ endpoint: "http://127.0.0.1:1/", mtom: { threshold: Number.NaN } }),
    ).toThrow(/the mtom threshold NaN is not a size/);
  });
});

describe("the handler's mtom option", () => {
  it('refuses "always" beside security that signs responses, which would be answered plain', () => {
    const signing = { ...security, checkRequest: () => ({}), secureResponse: (xml: string) => xml };
    expect(() =>
      createDocumentsHandler({}, { mtom: "always", security: signing as never }),
    ).toThrow(/mtom: "always" cannot go with security that signs responses/);
    expect(() =>
      createDocumentsHandler({}, { mtom: "auto", security: signing as never }),
    ).not.toThrow();
  });
});

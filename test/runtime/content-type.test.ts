/** The one Content-Type parser, for requests, responses and MIME parts alike. */
import { describe, expect, it } from "vitest";
import { parseContentType } from "../../runtime/src/http/content-type.js";

describe("parseContentType", () => {
  it("reads quoted values whole, `;` and escaped quotes included, and keeps a parameter's first", () => {
    const ct = parseContentType(
      'Multipart/Related; boundary="a;b"; type="application/xop+xml"; ' +
        'start-info="application/soap+xml; action=\\"urn:x\\""; charset=utf-8; charset=latin1',
    );
    expect(ct.type).toBe("multipart/related");
    expect(ct.params).toEqual({
      boundary: "a;b",
      type: "application/xop+xml",
      "start-info": 'application/soap+xml; action="urn:x"',
      charset: "utf-8",
    });
    expect(parseContentType("text/xml").params).toEqual({});
  });
});

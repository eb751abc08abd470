/**
 * Issuer names (runtime/src/wss/x509-names.ts): a value whose text starts with `#` is text, and a
 * received `#hex` value (RFC 4514 2.4) is read once as the DER it encodes, never decoded again
 * (a value of no string type once recursed until the stack ran out, before any signature check).
 */
import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { certificateIds, issuerKeyOf } from "../../runtime/src/wss/x509-names.js";
import { makeKeys, opensslMissing } from "../support/wss-keys.js";

const missing = opensslMissing();
if (missing) console.log(`wss: ${missing}; the issuer-name certificate test is skipped.`);

describe("received issuer names", () => {
  it("read a #hex value as the string it encodes, and one of no string type as raw", () => {
    expect(issuerKeyOf("CN=#0c03616263")).toBe(issuerKeyOf("CN=abc"));
    expect(issuerKeyOf("CN=#0C03616263, O=x")).toBe(issuerKeyOf("CN=abc,O=x"));
    // An OCTET STRING: compared as its hex, so it matches no text.
    expect(issuerKeyOf("CN=#0400")).toBe("2.5.4.3#0400");
    // The text "#0400" (escaped) is another name.
    expect(issuerKeyOf("CN=\\#0400")).toBe("2.5.4.3=#0400");
    // Hex that is no DER stays as written, raw, and so names no certificate's text.
    expect(issuerKeyOf("CN=#04")).toBe("2.5.4.3#04");
    const many = Array.from({ length: 200 }, () => "CN=#0400").join(",");
    expect(issuerKeyOf(many)!.split(",")).toHaveLength(200);
  });
});

describe.skipIf(missing !== undefined)("a certificate's issuer name", () => {
  it("writes a value that starts with # as text, escaped, as openssl reads it", () => {
    const keys = makeKeys("hash-name", { subject: "/O=Acme/CN=#hash name" });
    const ids = certificateIds(new X509Certificate(keys.cert));
    const issuer = execFileSync(
      "openssl",
      ["x509", "-in", keys.certPath, "-noout", "-issuer", "-nameopt", "RFC2253"],
      { encoding: "utf8" },
    );
    expect(`issuer=${ids.issuerName}`).toBe(issuer.trim());
    expect(ids.issuerName).toBe("CN=\\#hash name,O=Acme");
    expect(issuerKeyOf(ids.issuerName)).toBe(ids.issuerKey);
  });
});

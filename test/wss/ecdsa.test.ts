/**
 * R3 of issue 42: for an ECDSA signature (r, s), (r, n − s) is a second valid signature of the same
 * SignedInfo, and the replay cache was keyed on the signature's bytes, so a captured request could
 * be executed twice. Our signer now writes only low-S values, the verifier refuses high-S ones by
 * name, and a replay is known by its canonical SignedInfo whatever the value. xmlsec1 (OpenSSL)
 * signs ECDSA without normalizing s: each of its signatures is taken when low-S, refused by name
 * when high-S, and taken either way with the low-S check off, its output never changed.
 */
import { spawnSync } from "node:child_process";
import { createPublicKey, generateKeyPairSync, sign, verify } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { envelope } from "../../runtime/src/internal.js";
import { SecurityRefusal } from "../../runtime/src/index.js";
import { curveOrder, isHighS, toLowS } from "../../runtime/src/wss/ecdsa.js";
import { signEnvelope, signer, Verifier } from "../../runtime/src/wss/index.js";

type Signer = ReturnType<typeof signer>;
import { tempDir } from "../support/tmp.js";
import { makeKeys, opensslMissing, xmlsec1Missing, type TestKeys } from "../support/wss-keys.js";

const missing = opensslMissing();
if (missing) console.log(`wss ecdsa: ${missing}; the message tests are skipped.`);

const request = (n: number): string =>
  envelope("1.1", `<GetMessages xmlns="urn:m"><email>${n}</email></GetMessages>`);

const VALUE = /<ds:SignatureValue>([^<]+)<\/ds:SignatureValue>/;

/** The same signature with s replaced by n − s: the other of its two valid forms. */
function flipped(value: Buffer, n: bigint): Buffer {
  const size = value.length / 2;
  const s = BigInt(`0x${value.subarray(size).toString("hex")}`);
  const other = Buffer.from((n - s).toString(16).padStart(size * 2, "0"), "hex");
  return Buffer.concat([value.subarray(0, size), other]);
}

function refusal(verifier: Verifier, xml: string): SecurityRefusal {
  try {
    verifier.verify(xml);
  } catch (e) {
    if (e instanceof SecurityRefusal) return e;
    throw e;
  }
  throw new Error("not refused");
}

describe("low-S ECDSA values on P-256, P-384 and P-521", () => {
  it.each(["prime256v1", "secp384r1", "secp521r1"])(
    "%s: both forms verify, one is low",
    (curve) => {
      const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: curve });
      const n = curveOrder(publicKey)!;
      const text = Buffer.from("signed info");
      for (let i = 0; i < 16; i++) {
        const value = sign("sha256", text, { key: privateKey, dsaEncoding: "ieee-p1363" });
        const key = { key: publicKey, dsaEncoding: "ieee-p1363" } as const;
        const [low, high] = [toLowS(value, n), flipped(toLowS(value, n), n)];
        expect([isHighS(low, n), isHighS(high, n)]).toEqual([false, true]);
        expect([verify("sha256", text, key, low), verify("sha256", text, key, high)]).toEqual([
          true,
          true,
        ]);
      }
    },
  );
});

describe.skipIf(missing !== undefined)("ECDSA signatures and replays", () => {
  let keys: TestKeys;
  let s: Signer;
  let n: bigint;

  beforeAll(() => {
    keys = makeKeys("ecdsa-replay", { ec: true });
    s = signer({ key: keys.key, cert: keys.cert });
    n = curveOrder(createPublicKey(keys.cert))!;
  });

  const valueOf = (xml: string): Buffer => Buffer.from(VALUE.exec(xml)![1]!, "base64");
  const withValue = (xml: string, v: Buffer): string =>
    xml.replace(VALUE, `<ds:SignatureValue>${v.toString("base64")}</ds:SignatureValue>`);

  it("our signer writes only low-S values", () => {
    const values = Array.from({ length: 32 }, (_, i) => valueOf(signEnvelope(request(i), s)));
    expect(values.filter((v) => isHighS(v, n))).toEqual([]);
  });

  it("a low-S value is taken, its high-S twin refused by name", () => {
    const verifier = new Verifier({ trust: [keys.cert], checks: { replay: false } });
    const xml = signEnvelope(request(1), s);
    const twin = withValue(xml, flipped(valueOf(xml), n));
    expect(verifier.verify(xml).signer?.subject).toBe("CN=ecdsa-replay");
    const e = refusal(verifier, twin);
    expect([e.reason, e.message]).toEqual(["signature", "the ECDSA signature value is not low-S"]);
  });

  it("with high-S taken, the twin of a seen message is still a replay (keyed on SignedInfo)", () => {
    const verifier = new Verifier({ trust: [keys.cert], checks: { lowS: false } });
    const xml = signEnvelope(request(2), s);
    const twin = withValue(xml, flipped(valueOf(xml), n));
    expect(verifier.verify(xml).signer).toBeDefined();
    const e = refusal(verifier, twin);
    expect([e.reason, e.message]).toEqual(["replay", "the message was replayed"]);
    // The twin is a valid signature: a verifier that has not seen the first takes it.
    const fresh = new Verifier({ trust: [keys.cert], checks: { lowS: false } });
    expect(fresh.verify(twin).signer).toBeDefined();
  });
});

const noXmlsec1 = xmlsec1Missing();
if (noXmlsec1) console.log(`wss ecdsa: ${noXmlsec1}; the xmlsec1 ECDSA test is skipped.`);

describe.skipIf(noXmlsec1 !== undefined)("ECDSA signatures made by xmlsec1", () => {
  it("each is taken when low-S and refused by name when high-S", () => {
    const keys = makeKeys("xmlsec1-ecdsa", { ec: true });
    const n = curveOrder(createPublicKey(keys.cert))!;
    const strict = new Verifier({ trust: [keys.cert], checks: { replay: false } });
    const lenient = new Verifier({ trust: [keys.cert], checks: { replay: false, lowS: false } });
    const dir = tempDir("wss-xmlsec1-ecdsa-");
    const ours = signer({ key: keys.key, cert: keys.cert });
    for (let i = 0; i < 8; i++) {
      // Our signed message as xmlsec1's template: its digests and value emptied for it to fill.
      const template = signEnvelope(request(i), ours)
        .replace(/<ds:DigestValue>[^<]*</g, "<ds:DigestValue><")
        .replace(VALUE, "<ds:SignatureValue></ds:SignatureValue>");
      const [tpl, out] = [path.join(dir, `t${i}.xml`), path.join(dir, `o${i}.xml`)];
      writeFileSync(tpl, template);
      const ids = ["--id-attr:Id", "Body", "--id-attr:Id", "Timestamp"];
      const r = spawnSync(
        "xmlsec1",
        ["--sign", "--privkey-pem", keys.keyPath, ...ids, "--output", out, tpl],
        {
          encoding: "utf8",
        },
      );
      expect(r.status, r.stderr).toBe(0);
      const xml = readFileSync(out, "utf8");
      const value = Buffer.from(VALUE.exec(xml)![1]!.replace(/\s+/g, ""), "base64");
      expect(lenient.verify(xml).signer?.subject).toBe("CN=xmlsec1-ecdsa");
      if (isHighS(value, n)) {
        const e = refusal(strict, xml);
        expect([e.reason, e.message]).toEqual([
          "signature",
          "the ECDSA signature value is not low-S",
        ]);
      } else expect(strict.verify(xml).signer?.subject).toBe("CN=xmlsec1-ecdsa");
    }
  });
});

/**
 * What a certificate is named by when it does not travel with a message: its issuer's
 * distinguished name (written as RFC 4514 text, as WSS4J writes it) with its serial number, its
 * subject key identifier, and its SHA-1 thumbprint; and the comparison of a received issuer name
 * with a certificate's, attribute by attribute, case and spacing ignored, as RFC 5280 compares
 * names (a text comparison would refuse `CN=a, O=b` from WCF for `CN=a,O=b`).
 */
import { createHash, type X509Certificate } from "node:crypto";
import {
  child,
  children,
  contentOf,
  encodedOf,
  expectTag,
  octetsOf,
  oidOf,
  readDer,
  TAG,
  type Der,
} from "./der.js";

export interface CertificateIds {
  /** The issuer, RFC 4514 text. */
  readonly issuerName: string;
  /** The issuer, compared form (see nameKey). */
  readonly issuerKey: string;
  readonly serial: bigint;
  readonly ski: Buffer;
  readonly thumbprint: Buffer;
}

const SHORT: Readonly<Record<string, string>> = {
  "2.5.4.3": "CN",
  "2.5.4.7": "L",
  "2.5.4.8": "ST",
  "2.5.4.10": "O",
  "2.5.4.11": "OU",
  "2.5.4.6": "C",
  "2.5.4.9": "STREET",
  "0.9.2342.19200300.100.1.25": "DC",
  "0.9.2342.19200300.100.1.1": "UID",
};

/** The names other toolkits write besides RFC 4514's (.NET's E and S, OpenSSL's emailAddress). */
const TYPES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(SHORT).map(([oid, name]) => [name, oid])),
  S: "2.5.4.8",
  SN: "2.5.4.4",
  SURNAME: "2.5.4.4",
  SERIALNUMBER: "2.5.4.5",
  T: "2.5.4.12",
  TITLE: "2.5.4.12",
  G: "2.5.4.42",
  GIVENNAME: "2.5.4.42",
  E: "1.2.840.113549.1.9.1",
  EMAIL: "1.2.840.113549.1.9.1",
  EMAILADDRESS: "1.2.840.113549.1.9.1",
};

const SKI_OID = "2.5.29.14";

/** The ids of `cert`, read from its DER. */
export function certificateIds(cert: X509Certificate): CertificateIds {
  const tbs = child(readDer(cert.raw), 0, "the certificate's content");
  const fields = children(tbs);
  // The version is [0], and absent from a version 1 certificate.
  const at = fields[0]?.tag === TAG.context0 ? 1 : 0;
  const issuer = expectTag(fields[at + 2]!, TAG.sequence, "the issuer");
  const serialBytes = contentOf(expectTag(fields[at]!, TAG.integer, "the serial number"));
  return {
    issuerName: nameText(issuer),
    issuerKey: nameKey(rdnsOf(issuer)),
    serial: serialBytes.length ? BigInt(`0x${serialBytes.toString("hex")}`) : 0n,
    ski: subjectKeyIdentifier(fields.slice(at + 5)),
    thumbprint: createHash("sha1").update(cert.raw).digest(),
  };
}

/**
 * The SubjectKeyIdentifier extension's value; without one, the SHA-1 of the public key's bits
 * (RFC 5280 4.2.1.2 method 1), as WSS4J computes it.
 */
function subjectKeyIdentifier(rest: readonly Der[]): Buffer {
  const [spki, ...more] = rest;
  const extensions = more.find((d) => d.tag === TAG.context3);
  for (const ext of extensions ? children(child(extensions, 0, "the extensions")) : []) {
    const parts = children(ext);
    if (oidOf(parts[0]!) === SKI_OID)
      return Buffer.from(octetsOf(readDer(octetsOf(parts.at(-1)!, "the SKI")), "the SKI"));
  }
  const bits = contentOf(expectTag(child(spki!, 1, "the public key"), TAG.bitString, "the key"));
  return createHash("sha1").update(bits.subarray(1)).digest();
}

/** An attribute: its value as text, or (`raw`) `#` and the hex of a DER of no string type. */
type Atv = { readonly oid: string; readonly value: string; readonly raw: boolean };
type Rdn = Atv[];

function rdnsOf(name: Der): Rdn[] {
  return children(name).map((set) =>
    children(set).map((atv) => {
      const [type, value] = children(atv);
      return { oid: oidOf(type!), ...valueOf(value!) };
    }),
  );
}

/** A DER value as an attribute's: its text, or `#` and its hex when it is of no string type. */
function valueOf(d: Der): { value: string; raw: boolean } {
  const text = stringValue(d);
  return text === undefined
    ? { value: `#${encodedOf(d).toString("hex")}`, raw: true }
    : { value: text, raw: false };
}

/** The text of a DER string value; undefined for a value of another type. */
function stringValue(d: Der): string | undefined {
  const b = contentOf(d);
  switch (d.tag) {
    case 0x0c: // UTF8String
    case 0x13: // PrintableString
    case 0x16: // IA5String
    case 0x12: // NumericString
      return b.toString("utf8");
    case 0x14: // TeletexString, as latin1 as every toolkit reads it
      return b.toString("latin1");
    case 0x1e: // BMPString
      return Buffer.from(b).swap16().toString("utf16le");
    default:
      return undefined;
  }
}

/** RFC 4514 text: the last RDN first. */
function nameText(name: Der): string {
  // Reversed attribute by attribute, as OpenSSL and xmlsec write it (RFC 4514 leaves the order
  // within a multi-valued RDN free).
  return rdnsOf(name)
    .reverse()
    .map((rdn) =>
      [...rdn]
        .reverse()
        .map(({ oid, value, raw }) => {
          const short = SHORT[oid];
          if (!short || raw) return `${oid}=${raw ? value : `#${stringDer(value)}`}`;
          return `${short}=${escapeValue(value)}`;
        })
        .join("+"),
    )
    .join(",");
}

/** A value of a type with no short name, as the hex of its DER (a UTF8String). */
function stringDer(value: string): string {
  const b = Buffer.from(value, "utf8");
  const len = b.length < 128 ? [b.length] : [0x81, b.length];
  return Buffer.concat([Buffer.from([0x0c, ...len]), b]).toString("hex");
}

function escapeValue(v: string): string {
  return v
    .replace(/[\\"+,;<>]/g, (c) => `\\${c}`)
    .replace(/^[ #]/, (c) => `\\${c}`)
    .replace(/ $/, "\\ ");
}

/** The compared form of a name: types as OIDs, values trimmed, spaces collapsed, lower case. */
function nameKey(rdns: readonly Rdn[]): string {
  return rdns
    .map((rdn) =>
      rdn
        // A raw value (`#` and hex) keyed apart from the text "#…": `oid#hex`, never `oid=#hex`.
        .map(({ oid, value, raw }) =>
          raw ? `${oid}${value.toLowerCase()}` : `${oid}=${norm(value)}`,
        )
        .sort()
        .join("+"),
    )
    .join(",");
}

const norm = (v: string): string => v.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * A received `#hex` value (RFC 4514 2.4) as the attribute it encodes: its text when the DER is a
 * string, else raw. Hex that is no DER stays raw too, and then matches no certificate.
 */
function hexValue(hex: string): { value: string; raw: boolean } {
  try {
    return valueOf(readDer(Buffer.from(hex, "hex")));
  } catch {
    return { value: `#${hex}`, raw: true };
  }
}

/** The compared form of a received issuer name (RFC 4514, or .NET's with spaces and quotes). */
export function issuerKeyOf(text: string): string | undefined {
  const rdns: Rdn[] = [];
  let rdn: Atv[] = [];
  let i = 0;
  while (i < text.length) {
    const eq = text.indexOf("=", i);
    if (eq === -1) return undefined;
    const type = text
      .slice(i, eq)
      .trim()
      .toUpperCase()
      .replace(/^OID\./, "");
    const oid = /^\d+(\.\d+)+$/.test(type) ? type : TYPES[type];
    if (!oid) return undefined;
    const { value, hex, end } = readValue(text, eq + 1);
    rdn.push({ oid, ...(hex === undefined ? { value, raw: false } : hexValue(hex)) });
    const sep = text[end];
    if (sep !== "+") {
      rdns.push(rdn);
      rdn = [];
    }
    i = end + 1;
  }
  if (rdn.length) rdns.push(rdn);
  // The text names the last RDN first.
  return nameKey(rdns.reverse());
}

/** A value from `at` to the next unescaped `,`, `;` or `+`: quoted, `#hex` or escaped text. */
function readValue(
  text: string,
  at: number,
): { value: string; hex: string | undefined; end: number } {
  let i = at;
  while (text[i] === " ") i++;
  const hex = /^#([0-9a-fA-F]*)\s*(?=[,;+]|$)/.exec(text.slice(i));
  if (hex) return { value: "", hex: hex[1]!.toLowerCase(), end: i + hex[0].length };
  const bytes: number[] = [];
  const push = (s: string): void => void bytes.push(...Buffer.from(s, "utf8"));
  const quoted = text[i] === '"';
  if (quoted) i++;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted ? c === '"' : c === "," || c === ";" || c === "+") break;
    if (c !== "\\") {
      push(c);
      continue;
    }
    const hex = text.slice(i + 1, i + 3);
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else push(text[++i] ?? "");
  }
  if (quoted) {
    i++;
    while (text[i] === " ") i++;
  }
  return { value: Buffer.from(bytes).toString("utf8"), hex: undefined, end: i };
}

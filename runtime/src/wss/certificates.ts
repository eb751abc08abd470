/**
 * The certificates tokens carry, read once each: parsing one, and taking its key and fingerprint,
 * cost about 1 ms per request in the bench (bench/wss.ts), and a signer sends the same one every
 * time. Whether it is trusted is decided when it is first read.
 */
import { X509Certificate, type KeyObject } from "node:crypto";
import { certificateOption } from "./credentials.js";
import { KnownCertificates } from "./key-info.js";

export interface ReadCertificate {
  readonly cert: X509Certificate;
  readonly publicKey: KeyObject;
  readonly trusted: boolean;
  readonly validFrom: number;
  readonly validTo: number;
}

const MAX_KEPT = 64;

export class Certificates {
  private readonly kept = new Map<string, ReadCertificate>();
  private readonly fingerprints: ReadonlySet<string>;
  private readonly trust: readonly X509Certificate[];
  /** The certificates a message may name without carrying: those trusted and those given. */
  readonly known: KnownCertificates;

  constructor(o: {
    readonly trust: readonly (string | Buffer | X509Certificate)[];
    readonly certificates?: readonly (string | Buffer | X509Certificate)[];
  }) {
    this.trust = o.trust.map((t, i) => certificateOption(t, `verify.trust[${i}]`));
    const given = (o.certificates ?? []).map((c, i) =>
      certificateOption(c, `verify.certificates[${i}]`),
    );
    this.fingerprints = new Set(this.trust.map((t) => t.fingerprint256));
    this.known = new KnownCertificates([...this.trust, ...given]);
  }

  /** The certificate of base64 DER `text`; throws when it is none. */
  read(text: string): ReadCertificate {
    const b64 = text.replace(/\s+/g, "");
    const known = this.kept.get(b64);
    if (known) return known;
    const cert = new X509Certificate(Buffer.from(b64, "base64"));
    const read: ReadCertificate = {
      cert,
      publicKey: cert.publicKey,
      trusted:
        this.fingerprints.has(cert.fingerprint256) || this.trust.some((t) => issuedBy(cert, t)),
      validFrom: Date.parse(cert.validFrom),
      validTo: Date.parse(cert.validTo),
    };
    if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(b64, read);
    return read;
  }
}

/** Whether `cert` was issued and signed by `ca`. */
function issuedBy(cert: X509Certificate, ca: X509Certificate): boolean {
  try {
    return cert.checkIssued(ca) && cert.verify(ca.publicKey);
  } catch {
    return false;
  }
}

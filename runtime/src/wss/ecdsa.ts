/**
 * Low-S ECDSA: (r, n − s) is a second valid signature beside (r, s), so the signer writes only the
 * smaller s and the verifier refuses the larger (as BIP 62 and libsecp256k1 do), on the NIST
 * curves XML Signature names, with values in IEEE P1363 form (r then s, each the order's length).
 */
import type { KeyObject } from "node:crypto";
import { unsignedOf } from "./der.js";

/** The group orders of P-256, P-384 and P-521 (FIPS 186-4 D.1.2), by node:crypto's curve names. */
const ORDERS: Readonly<Record<string, bigint>> = {
  prime256v1: BigInt("0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"),
  secp384r1: BigInt(
    "0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973",
  ),
  secp521r1: BigInt(
    "0x01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409",
  ),
};

/** The group order of an EC key's curve, when it is one of the three. */
export function curveOrder(key: KeyObject): bigint | undefined {
  const curve = key.asymmetricKeyDetails?.namedCurve;
  return curve === undefined ? undefined : ORDERS[curve];
}

/** The byte length of a scalar modulo `n`. */
const scalarBytes = (n: bigint): number => Math.ceil(n.toString(16).length / 2);

/** Whether `value`, r‖s, has s > n/2. A value of the wrong length is not judged here. */
export function isHighS(value: Uint8Array, n: bigint): boolean {
  const size = scalarBytes(n);
  if (value.length !== 2 * size) return false;
  return unsignedOf(value.subarray(size)) > n >> 1n;
}

/** `value`, r‖s, with s replaced by n − s when it is high. */
export function toLowS(value: Buffer, n: bigint): Buffer {
  if (!isHighS(value, n)) return value;
  const size = scalarBytes(n);
  const s = n - unsignedOf(value.subarray(size));
  const hex = s.toString(16).padStart(size * 2, "0");
  return Buffer.concat([value.subarray(0, size), Buffer.from(hex, "hex")]);
}

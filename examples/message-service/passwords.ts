/**
 * Password hashing: scrypt with a random salt, run on libuv's thread pool (`crypto.scrypt`), never
 * on the event loop, and compared in constant time. Shared by both stores and the authenticator.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

export const SALT_BYTES = 16;
export const KEY_LENGTH = 32;

/**
 * A key derivation: the hash of `password` under `salt`. Tests inject one that counts its calls.
 */
export type Kdf = (password: string, salt: Buffer) => Promise<Buffer>;

export const scryptKdf: Kdf = (password, salt) =>
  new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, (e, key) => (e ? reject(e) : resolve(key))),
  );

/** What a store keeps of an account to check its password. */
export interface AccountRecord {
  readonly userId: number;
  readonly salt: Buffer;
  readonly passwordHash: Buffer;
}

/** A fresh salt and the hash of `password` under it. */
export async function hashPassword(
  password: string,
  kdf: Kdf = scryptKdf,
): Promise<{ salt: Buffer; passwordHash: Buffer }> {
  const salt = randomBytes(SALT_BYTES);
  return { salt, passwordHash: await kdf(password, salt) };
}

// Compared against when the e-mail is unknown, so that timing does not tell which accounts exist.
const DUMMY_SALT = randomBytes(SALT_BYTES);
let dummyHash: Promise<Buffer> | undefined;

/**
 * Whether `password` is the account's; for an unknown account (undefined) the same work is done
 * against a dummy hash and the answer is false.
 */
export async function passwordMatches(
  account: AccountRecord | undefined,
  password: string,
  kdf: Kdf = scryptKdf,
): Promise<boolean> {
  const expected = account?.passwordHash ?? (await (dummyHash ??= scryptKdf("-", DUMMY_SALT)));
  const actual = await kdf(password, account?.salt ?? DUMMY_SALT);
  return actual.length === expected.length && timingSafeEqual(actual, expected) && !!account;
}

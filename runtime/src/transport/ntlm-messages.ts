/**
 * The three NTLM messages (MS-NLMP 2.2.1) and the NTLMv2 response (3.3.2): NEGOTIATE with its
 * Version field, as Windows sends it, CHALLENGE read, AUTHENTICATE written with a MIC when the
 * server gives a timestamp. No signing or sealing is negotiated: HTTP needs neither, and both
 * need RC4, which Node's OpenSSL 3 does not load by default.
 */
import { createHmac, randomBytes } from "node:crypto";
import { md4 } from "./md4.js";

const SIGNATURE = Buffer.from("NTLMSSP\0", "latin1");

/** NegotiateFlags (MS-NLMP 2.2.2.5) this client asks for. */
export const FLAGS = {
  UNICODE: 0x1,
  OEM: 0x2,
  REQUEST_TARGET: 0x4,
  NTLM: 0x200,
  ALWAYS_SIGN: 0x8000,
  EXTENDED_SESSIONSECURITY: 0x80000,
  TARGET_INFO: 0x800000,
  VERSION: 0x2000000,
  N128: 0x20000000,
  N56: 0x80000000,
} as const;

const NEGOTIATE_FLAGS =
  (FLAGS.UNICODE |
    FLAGS.OEM |
    FLAGS.REQUEST_TARGET |
    FLAGS.NTLM |
    FLAGS.ALWAYS_SIGN |
    FLAGS.EXTENDED_SESSIONSECURITY |
    FLAGS.VERSION |
    FLAGS.N128 |
    FLAGS.N56) >>>
  0;

/** Windows 10's version (10.0.19041), NTLM revision 15: what the Version field carries. */
const VERSION = Buffer.from([10, 0, 0x61, 0x4a, 0, 0, 0, 0x0f]);

/**
 * The NEGOTIATE message: 40 bytes, no domain or workstation (gss-ntlmssp refuses the 32-byte
 * form).
 */
export function negotiateMessage(): Buffer {
  const m = Buffer.alloc(40);
  SIGNATURE.copy(m, 0);
  m.writeUInt32LE(1, 8);
  m.writeUInt32LE(NEGOTIATE_FLAGS, 12);
  // Domain and workstation fields stay empty, their offsets at the end of the message.
  m.writeUInt32LE(40, 20);
  m.writeUInt32LE(40, 28);
  VERSION.copy(m, 32);
  return m;
}

export interface Challenge {
  readonly flags: number;
  readonly serverChallenge: Buffer;
  /** The AV pairs as sent (MS-NLMP 2.2.2.1), to be echoed in the NTLMv2 response. */
  readonly targetInfo: Buffer;
  /** The message as received, for the MIC. */
  readonly raw: Buffer;
}

/** Reads a CHALLENGE message; throws when it is not one. */
export function readChallenge(raw: Buffer): Challenge {
  if (raw.length < 32 || !raw.subarray(0, 8).equals(SIGNATURE) || raw.readUInt32LE(8) !== 2)
    throw new Error("the server's NTLM token is not a CHALLENGE message");
  const flags = raw.readUInt32LE(20);
  let targetInfo = Buffer.alloc(0);
  if (raw.length >= 48 && flags & FLAGS.TARGET_INFO) {
    const len = raw.readUInt16LE(40);
    const off = raw.readUInt32LE(44);
    if (off + len > raw.length) throw new Error("the server's NTLM CHALLENGE is truncated");
    targetInfo = Buffer.from(raw.subarray(off, off + len));
  }
  return { flags, serverChallenge: Buffer.from(raw.subarray(24, 32)), targetInfo, raw };
}

const AV_EOL = 0;
const AV_FLAGS = 6;
const AV_TIMESTAMP = 7;

/** The AV pairs of a target info block, by id (the first of each). */
export function avPairs(info: Buffer): Map<number, Buffer> {
  const out = new Map<number, Buffer>();
  for (let off = 0; off + 4 <= info.length;) {
    const id = info.readUInt16LE(off);
    const len = info.readUInt16LE(off + 2);
    if (id === AV_EOL) break;
    if (!out.has(id)) out.set(id, info.subarray(off + 4, off + 4 + len));
    off += 4 + len;
  }
  return out;
}

const utf16 = (s: string): Buffer => Buffer.from(s, "utf16le");
const hmac = (key: Uint8Array, ...data: Uint8Array[]): Buffer => {
  const h = createHmac("md5", key);
  for (const d of data) h.update(d);
  return h.digest();
};

/** NTOWFv1: the NT hash, MD4 of the UTF-16LE password. */
export const ntowfv1 = (password: string): Buffer => md4(utf16(password));

/** NTOWFv2 (MS-NLMP 3.3.2): keyed by the NT hash, over the upper-cased user and the domain. */
export const ntowfv2 = (password: string, user: string, domain: string): Buffer =>
  hmac(ntowfv1(password), utf16(user.toUpperCase() + domain));

export interface V2Response {
  readonly nt: Buffer;
  readonly lm: Buffer;
  readonly sessionBaseKey: Buffer;
}

/**
 * The NTLMv2 and LMv2 responses (MS-NLMP 3.3.2) to `serverChallenge`: `time` in FILETIME units,
 * `targetInfo` the AV pairs to echo.
 */
export function v2Response(
  key: Buffer,
  serverChallenge: Buffer,
  clientChallenge: Buffer,
  time: Buffer,
  targetInfo: Buffer,
): V2Response {
  const temp = Buffer.concat([
    Buffer.from([1, 1, 0, 0, 0, 0, 0, 0]),
    time,
    clientChallenge,
    Buffer.alloc(4),
    targetInfo,
    Buffer.alloc(4),
  ]);
  const proof = hmac(key, serverChallenge, temp);
  return {
    nt: Buffer.concat([proof, temp]),
    lm: Buffer.concat([hmac(key, serverChallenge, clientChallenge), clientChallenge]),
    sessionBaseKey: hmac(key, proof),
  };
}

/** Now as a FILETIME (100 ns since 1601), little-endian. */
function fileTime(): Buffer {
  const t = (BigInt(Date.now()) + 11_644_473_600_000n) * 10_000n;
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(t);
  return b;
}

/** The target info to echo: the server's, with MsvAvFlags saying a MIC follows when it should. */
function echoedTargetInfo(info: Buffer, withMic: boolean): Buffer {
  if (!withMic) return info;
  const pairs: Buffer[] = [];
  let flags = 0;
  for (let off = 0; off + 4 <= info.length;) {
    const id = info.readUInt16LE(off);
    const len = info.readUInt16LE(off + 2);
    if (id === AV_EOL) break;
    if (id === AV_FLAGS) flags = info.readUInt32LE(off + 4);
    else pairs.push(info.subarray(off, off + 4 + len));
    off += 4 + len;
  }
  const flag = Buffer.alloc(8);
  flag.writeUInt16LE(AV_FLAGS, 0);
  flag.writeUInt16LE(4, 2);
  flag.writeUInt32LE((flags | 0x2) >>> 0, 4);
  return Buffer.concat([...pairs, flag, Buffer.alloc(4)]);
}

export interface Identity {
  readonly user: string;
  readonly domain: string;
  readonly password: string;
  readonly workstation: string;
}

/**
 * The AUTHENTICATE message answering `challenge` (MS-NLMP 2.2.1.3), after `negotiate`. With the
 * server's timestamp, the LMv2 response is zeros and a MIC over the three messages is sent.
 */
export function authenticateMessage(
  id: Identity,
  negotiate: Buffer,
  challenge: Challenge,
  random: (n: number) => Buffer = randomBytes,
): Buffer {
  const pairs = avPairs(challenge.targetInfo);
  const serverTime = pairs.get(AV_TIMESTAMP);
  const withMic = serverTime !== undefined;
  const key = ntowfv2(id.password, id.user, id.domain);
  const r = v2Response(
    key,
    challenge.serverChallenge,
    random(8),
    serverTime ? Buffer.from(serverTime) : fileTime(),
    echoedTargetInfo(challenge.targetInfo, withMic),
  );
  const lm = withMic ? Buffer.alloc(24) : r.lm;
  const flags = (NEGOTIATE_FLAGS & challenge.flags & ~FLAGS.OEM) | FLAGS.UNICODE;
  const fields = [
    lm,
    r.nt,
    utf16(id.domain),
    utf16(id.user),
    utf16(id.workstation),
    Buffer.alloc(0),
  ];
  const header = Buffer.alloc(88);
  SIGNATURE.copy(header, 0);
  header.writeUInt32LE(3, 8);
  let off = header.length;
  fields.forEach((f, i) => {
    header.writeUInt16LE(f.length, 12 + i * 8);
    header.writeUInt16LE(f.length, 14 + i * 8);
    header.writeUInt32LE(off, 16 + i * 8);
    off += f.length;
  });
  header.writeUInt32LE(flags >>> 0, 60);
  VERSION.copy(header, 64);
  const message = Buffer.concat([header, ...fields]);
  // Without key exchange, the exported session key is the session base key (MS-NLMP 3.4.5.1).
  if (withMic) hmac(r.sessionBaseKey, negotiate, challenge.raw, message).copy(message, 72);
  return message;
}

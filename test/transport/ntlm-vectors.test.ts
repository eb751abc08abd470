/**
 * MD4 against RFC 1320's test suite, and NTLMv2 against MS-NLMP 4.2.4's example (user "User",
 * domain "Domain", password "Password", server challenge 0123456789abcdef, client challenge aa…,
 * time 0, target info naming "Domain" and "Server").
 */
import { describe, expect, it } from "vitest";
import { md4 } from "../../runtime/src/transport/md4.js";
import {
  authenticateMessage,
  avPairs,
  negotiateMessage,
  ntowfv1,
  ntowfv2,
  readChallenge,
  v2Response,
} from "../../runtime/src/transport/ntlm-messages.js";
import { ntlm } from "../../runtime/src/transport/ntlm.js";
import { offeredSchemes, splitUser } from "../../runtime/src/transport/auth.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("md4", () => {
  it.each([
    ["", "31d6cfe0d16ae931b73c59d7e0c089c0"],
    ["a", "bde52cb31de33e46245e05fbdbd6fb24"],
    ["abc", "a448017aaf21d8525fc10ae87aa6729d"],
    ["message digest", "d9130a8164549fe818874806e1c7014b"],
    ["abcdefghijklmnopqrstuvwxyz", "d79e1c308aa5bbcdeea8ed63df412da9"],
    [
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
      "043f8582f241db351ce627e153e7f0e4",
    ],
    ["1234567890".repeat(8), "e33b4ddc9c38f2199c3e7b164fcc0536"],
  ])("MD4(%j) is RFC 1320's", (input, digest) => {
    expect(hex(md4(Buffer.from(input, "latin1")))).toBe(digest);
  });

  it("pads lengths at and around the 56-byte boundary", () => {
    // 55 bytes fit one block, 56 need two: a padding mistake shows in one of them.
    for (const n of [55, 56, 63, 64, 65, 119, 120])
      expect(hex(md4(Buffer.alloc(n, 0x61)))).not.toBe(hex(md4(Buffer.alloc(n + 1, 0x61))));
    expect(hex(md4(Buffer.alloc(56, 0x61)))).toHaveLength(32);
  });
});

/** MS-NLMP 4.2.4's target info: MsvAvNbDomainName "Domain", MsvAvNbComputerName "Server". */
function exampleTargetInfo(): Buffer {
  const pair = (id: number, text: string) => {
    const v = Buffer.from(text, "utf16le");
    const h = Buffer.alloc(4);
    h.writeUInt16LE(id, 0);
    h.writeUInt16LE(v.length, 2);
    return Buffer.concat([h, v]);
  };
  return Buffer.concat([pair(2, "Domain"), pair(1, "Server"), Buffer.alloc(4)]);
}

describe("NTLMv2 (MS-NLMP 4.2.4)", () => {
  const serverChallenge = Buffer.from("0123456789abcdef", "hex");
  const clientChallenge = Buffer.alloc(8, 0xaa);

  it("derives NTOWFv1 and NTOWFv2 of the example", () => {
    expect(hex(ntowfv1("Password"))).toBe("a4f49c406510bdcab6824ee7c30fd852");
    expect(hex(ntowfv2("Password", "User", "Domain"))).toBe("0c868a403bfd7a93a3001ef22ef02e3f");
  });

  it("computes the example's NTProofStr, LMv2 response and session base key", () => {
    const key = ntowfv2("Password", "User", "Domain");
    const r = v2Response(
      key,
      serverChallenge,
      clientChallenge,
      Buffer.alloc(8),
      exampleTargetInfo(),
    );
    expect(hex(r.nt.subarray(0, 16))).toBe("68cd0ab851e51c96aabc927bebef6a1c");
    expect(hex(r.lm)).toBe("86c35097ac9cec102554764a57cccc19aaaaaaaaaaaaaaaa");
    expect(hex(r.sessionBaseKey)).toBe("8de40ccadbc14a82f15cb0ad0de95ca3");
    // The blob after the proof: version 1.1, zeros, time, client challenge, zeros, target info.
    expect(hex(r.nt.subarray(16, 44))).toBe(
      "0101000000000000" + "0000000000000000" + "aaaaaaaaaaaaaaaa" + "00000000",
    );
  });

  it("encodes credentials as UTF-16LE, non-ASCII ones included", () => {
    expect(hex(ntowfv1("é"))).toBe(hex(md4(Buffer.from([0xe9, 0x00]))));
    expect(hex(ntowfv1("Pässwörd€"))).toBe(hex(md4(Buffer.from("Pässwörd€", "utf16le"))));
    expect(hex(ntowfv1("Pässwörd€"))).not.toBe(hex(md4(Buffer.from("Pässwörd€", "utf8"))));
    // The user is upper-cased, the domain is not.
    expect(hex(ntowfv2("p", "jürgen", "Dom"))).toBe(hex(ntowfv2("p", "JÜRGEN", "Dom")));
    expect(hex(ntowfv2("p", "u", "Dom"))).not.toBe(hex(ntowfv2("p", "u", "DOM")));
  });
});

describe("NTLM messages", () => {
  it("sends a 40-byte NEGOTIATE with the Version flag and field, asking for no LM or NTLMv1", () => {
    const m = negotiateMessage();
    expect(m).toHaveLength(40);
    expect(m.subarray(0, 8).toString("latin1")).toBe("NTLMSSP\0");
    expect(m.readUInt32LE(8)).toBe(1);
    const flags = m.readUInt32LE(12);
    expect(flags & 0x02000000).toBeTruthy(); // NEGOTIATE_VERSION
    expect(flags & 0x00080000).toBeTruthy(); // extended session security (no NTLMv1 hash)
    expect(flags & 0x80).toBe(0); // no LM key
    expect(m[39]).toBe(0x0f); // NTLM revision 15
  });

  /** A CHALLENGE as a server sends it, with `info` as target info. */
  function challenge(info: Buffer): Buffer {
    const m = Buffer.alloc(56);
    m.write("NTLMSSP\0", 0, "latin1");
    m.writeUInt32LE(2, 8);
    m.writeUInt32LE(0xe28a8215, 20);
    Buffer.from("0123456789abcdef", "hex").copy(m, 24);
    m.writeUInt16LE(info.length, 40);
    m.writeUInt16LE(info.length, 42);
    m.writeUInt32LE(56, 44);
    return Buffer.concat([m, info]);
  }

  it("answers with the user's names in UTF-16LE and the NTLMv2 proof over the server's challenge", () => {
    const info = exampleTargetInfo();
    const id = { user: "User", domain: "Domain", password: "Password", workstation: "" };
    const random = (n: number) => Buffer.alloc(n, 0xaa);
    const msg = authenticateMessage(id, negotiateMessage(), readChallenge(challenge(info)), random);
    const field = (at: number) =>
      msg.subarray(msg.readUInt32LE(at + 4), msg.readUInt32LE(at + 4) + msg.readUInt16LE(at));
    expect(field(28).toString("utf16le")).toBe("Domain");
    expect(field(36).toString("utf16le")).toBe("User");
    const nt = field(20);
    const key = ntowfv2("Password", "User", "Domain");
    const serverChallenge = Buffer.from("0123456789abcdef", "hex");
    const expected = v2Response(key, serverChallenge, random(8), nt.subarray(24, 32), info);
    expect(hex(nt)).toBe(hex(expected.nt));
    expect(msg.subarray(72, 88).equals(Buffer.alloc(16))).toBe(true); // no timestamp: no MIC
  });

  it("sends a MIC and the MIC flag when the server gives a timestamp", () => {
    const ts = Buffer.from("0700080000000000000000000000", "hex").subarray(0, 12);
    const info = Buffer.concat([exampleTargetInfo().subarray(0, -4), ts, Buffer.alloc(4)]);
    const id = { user: "User", domain: "Domain", password: "Password", workstation: "" };
    const msg = authenticateMessage(id, negotiateMessage(), readChallenge(challenge(info)));
    expect(msg.subarray(72, 88).equals(Buffer.alloc(16))).toBe(false);
    const nt = msg.subarray(msg.readUInt32LE(24), msg.readUInt32LE(24) + msg.readUInt16LE(20));
    const echoed = avPairs(nt.subarray(44));
    expect(echoed.get(6)?.readUInt32LE(0)).toBe(2);
    // The LMv2 response is zeros beside a timestamp (MS-NLMP 3.1.5.1.2).
    const lm = msg.subarray(msg.readUInt32LE(16), msg.readUInt32LE(16) + msg.readUInt16LE(12));
    expect(lm.equals(Buffer.alloc(24))).toBe(true);
  });

  it("refuses a token that is no CHALLENGE", () => {
    expect(() => readChallenge(negotiateMessage())).toThrow(/not a CHALLENGE/);
  });

  it("keeps the password out of what it returns", () => {
    const auth = ntlm({ username: "DOM\\u", password: "s3cret-Pässword" });
    expect(JSON.stringify(auth)).not.toContain("s3cret");
    expect(String(Object.values(auth))).not.toContain("s3cret");
  });
});

describe("credentials and challenges", () => {
  it("reads DOMAIN\\name, name@REALM and name with domain", () => {
    expect(splitUser("CORP\\alice")).toEqual({ user: "alice", domain: "CORP" });
    expect(splitUser("alice@CORP.EXAMPLE")).toEqual({ user: "alice", domain: "CORP.EXAMPLE" });
    expect(splitUser("alice", "CORP")).toEqual({ user: "alice", domain: "CORP" });
  });

  it("lists the schemes WWW-Authenticate offers", () => {
    expect(
      offeredSchemes(["Negotiate", 'NTLM, Basic realm="x, y", Digest realm="a", nonce="b"']),
    ).toEqual(["Negotiate", "NTLM", "Basic", "Digest"]);
  });
});

/** Changes made to a multipart package on the wire, which a verifier must refuse. */
import { expect } from "vitest";

/** `b` with 16 bytes flipped, `skip` bytes into the first place the bytes of `what` begin. */
export function flipped(b: Buffer, what: Uint8Array, skip = 0): Buffer {
  const at = b.indexOf(Buffer.from(what.subarray(0, 64)));
  expect(at).toBeGreaterThan(0);
  const out = Buffer.from(b);
  for (let i = 0; i < 16; i++) out[at + skip + i] = out[at + skip + i]! ^ 0xff;
  return out;
}

/** A package `b` with a part holding `content` (latin1) added before its close delimiter. */
export function withExtraPart(b: Buffer, content = "PNG"): Buffer {
  const text = b.toString("latin1");
  const close = text.lastIndexOf("\r\n--");
  const delimiter = text.slice(close, text.lastIndexOf("--"));
  const head = `${delimiter}\r\nContent-Type: image/png\r\nContent-ID: <extra@x>\r\n\r\n`;
  return Buffer.from(text.slice(0, close) + head + content + text.slice(close), "latin1");
}

/** The client reads a response body chunk by chunk into one buffer, whatever Content-Length says. */
import { describe, expect, it } from "vitest";
import { readBody } from "../../runtime/src/http/body.js";

/** A response whose body arrives as `chunks`, with the given Content-Length (none when undefined). */
function response(chunks: readonly Uint8Array[], contentLength?: string): Response {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });
  const headers = new Headers(
    contentLength === undefined ? {} : { "Content-Length": contentLength },
  );
  // A Response built here ignores a Content-Length given to it, so the header is read from this one.
  const res = new Response(stream);
  Object.defineProperty(res, "headers", { value: headers });
  return res;
}

const bytes = (n: number, seed: number) =>
  Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 255);
const concat = (chunks: readonly Uint8Array[]) => Buffer.concat(chunks.map((c) => Buffer.from(c)));

describe("readBody", () => {
  const chunks = [bytes(10, 1), bytes(70_000, 2), bytes(1, 3), bytes(33_333, 4)];
  const whole = concat(chunks);

  it("joins the chunks in order, with an exact, a missing, a too small, a too large or a bogus Content-Length", async () => {
    for (const cl of [
      String(whole.length),
      undefined,
      "5",
      String(whole.length * 3),
      "-1",
      "abc",
      "0",
      "1e400",
    ]) {
      const got = await readBody(response(chunks, cl));
      expect(Buffer.compare(got, whole), `Content-Length ${cl}`).toBe(0);
      expect(got.length).toBe(whole.length);
    }
  });

  it("an empty body and a response without one give no bytes", async () => {
    expect((await readBody(response([], "0"))).length).toBe(0);
    expect((await readBody(new Response(null, { status: 204 }))).length).toBe(0);
  });

  it("refuses a body longer than its limit, declared or as it arrives, and reads one of exactly that length", async () => {
    const limit = whole.length;
    expect((await readBody(response(chunks, String(whole.length)), limit)).length).toBe(
      whole.length,
    );
    expect((await readBody(response(chunks), limit)).length).toBe(whole.length);
    const message = `the response body is larger than ${limit - 1} bytes (the limit)`;
    await expect(readBody(response(chunks, String(whole.length)), limit - 1)).rejects.toThrow(
      message,
    );
    await expect(readBody(response(chunks), limit - 1)).rejects.toThrow(message);
    await expect(readBody(response(chunks, "10"), limit - 1)).rejects.toThrow(message);
  });

  it("does not preallocate what a huge declared Content-Length claims", async () => {
    const got = await readBody(response([bytes(3, 9)], String(2 ** 40)));
    expect([...got]).toEqual([...bytes(3, 9)]);
    expect(got.buffer.byteLength).toBeLessThanOrEqual(64 * 1024 * 1024);
  });
});

/**
 * Issue #37, defect 6: over HTTP GET and POST a parameter that is not repeated may be given once
 * only, as SOAP refuses a repeated element; `MessageId=103&MessageId=104` deletes nothing.
 * Real sockets against the real server on SQLite.
 */
import { describe, expect, it } from "vitest";
import { ALICE } from "./helpers.js";
import { getMessages, serveOnSocket } from "./wire.js";

const creds = `email=${encodeURIComponent(ALICE.email)}&password=${ALICE.password}`;
const ids = async (url: string) =>
  [...(await getMessages(url, ALICE)).text.matchAll(/<Id>(\d+)<\/Id>/g)].map((m) => Number(m[1]));

describe("a repeated HTTP parameter (defect 6)", () => {
  it("is refused over HTTP POST and GET, and nothing is deleted", async () => {
    const { url } = await serveOnSocket();
    const post = await fetch(`${url}/DeleteMessage`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `${creds}&MessageId=103&MessageId=104`,
    });
    expect(post.status).toBe(500);
    expect(await post.text()).toBe("Parameter MessageId occurs more than once.");
    const get = await fetch(`${url}/DeleteMessage?${creds}&messageid=103&MessageId=104`);
    expect(get.status).toBe(500);
    expect(await get.text()).toBe("Parameter MessageId occurs more than once.");
    const twice = await fetch(`${url}/GetMessages?${creds}&email=bob%40example.com`);
    expect([twice.status, await twice.text()]).toEqual([
      500,
      "Parameter email occurs more than once.",
    ]);
    expect(await ids(url)).toEqual([101, 102, 103, 104, 105]);
    // Once each, the same request is served.
    const once = await fetch(`${url}/DeleteMessage?${creds}&MessageId=103`);
    expect(once.status).toBe(200);
    expect(await ids(url)).toEqual([101, 102, 104, 105]);
  });
});

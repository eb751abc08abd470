/**
 * An endpoint with `user:password@` (which fetch refuses) sends Basic authorization instead, over
 * every binding; headers given win over it, and the password never appears in an error.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient, TransportError } from "../../generated-samples/message-service/index.js";
import { rejection, serverPerTest } from "../support/loopback.js";

const ALICE = { email: "alice@example.com", password: "alice-pass" };
const servers = serverPerTest(afterEach);
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

describe("credentials in the endpoint", () => {
  it("are sent as Basic authorization on every port, and left out of errors", async () => {
    const seen: (string | undefined)[] = [];
    const server = await servers.serve((req, res) => {
      seen.push(req.headers.authorization);
      req.resume();
      res.writeHead(500, { "Content-Type": "text/plain" }).end("no");
    });
    const endpoint = server.url.replace("http://", "http://bob:s%20cr%40t@") + "/api.asmx";
    for (const port of ["ApiSoap", "ApiSoap12", "ApiHttpGet", "ApiHttpPost"] as const) {
      const client = new ApiClient({ endpoint, port });
      const e = await client.getMessages(ALICE).catch((x: unknown) => x);
      const message = String((e as Error).message);
      for (const secret of ["cr%40t", "s cr@t", "s%20cr", "bob"])
        expect(message, port).not.toContain(secret);
    }
    expect(seen).toEqual(Array(4).fill(basic("bob", "s cr@t")));
  });

  it("an Authorization header given, in any case, for the client or the call, is sent instead", async () => {
    const seen: (string | undefined)[] = [];
    const server = await servers.serve((req, res) => {
      seen.push(req.headers.authorization);
      req.resume();
      res.writeHead(500).end();
    });
    const endpoint = server.url.replace("http://", "http://bob:pw@") + "/api.asmx";
    await new ApiClient({ endpoint, headers: { authorization: "Bearer client" } })
      .getMessages(ALICE)
      .catch(() => {});
    await new ApiClient({ endpoint })
      .getMessages(ALICE, { headers: { AUTHORIZATION: "Bearer call" } })
      .catch(() => {});
    expect(seen).toEqual(["Bearer client", "Bearer call"]);
  });

  it("a refused connection names the endpoint without the password", async () => {
    const closed = await servers.serve(() => {});
    const endpoint = closed.url.replace("http://", "http://bob:hunter2@") + "/api.asmx";
    await closed.close();
    const e = await rejection(new ApiClient({ endpoint }).getMessages(ALICE), TransportError);
    expect(e.message).toMatch(
      new RegExp(`^POST ${closed.url.replace(/[.]/g, "\\.")}/api\\.asmx failed: `),
    );
    expect(e.message).not.toContain("hunter2");
  });
});

/**
 * Issue #42, defect R4: a server built as the scaffold builds it (the runtime's `createServer`
 * around a generated handler, on loopback port 0) has the example service's network defences. A
 * forged Host is not written into ?WSDL, ?disco or the help pages (400); idle connections over the
 * per-address cap get 503; a connection that never finishes its headers is closed at the header
 * timeout; `Expect: 100-continue` over the body limit gets 413 with no `100 Continue`; and the test
 * form is withheld from a request a proxy on this machine relays. `harden` does the same to an
 * application's own `node:http` server.
 */
import { openRaw } from "../support/raw-socket.js";
import { createServer as nodeServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  createApiHandler,
  type ApiService,
} from "../../generated-samples/message-service/index.js";
import { createServer, harden, type ServerHardening } from "../../runtime/src/index.js";

const impl: ApiService = {
  getMessages: () => [],
  getMessagesInDateRange: () => [],
  deleteMessage: () => undefined,
};

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** `server` listening on loopback: its port. */
async function listening(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** The scaffold's server: the generated handler on the runtime's `createServer`. */
const scaffolded = (limits: ServerHardening = {}, allowedHosts?: string[]) =>
  listening(createServer(createApiHandler(impl, allowedHosts ? { allowedHosts } : {}), limits));

const open = (port: number) => openRaw(port, sockets);

/** One request on its own connection: everything answered, once the server closes it. */
async function exchange(port: number, request: string): Promise<string> {
  const raw = await open(port);
  raw.socket.write(request);
  return raw.closed;
}

const get = (port: number, target: string, headers: string) =>
  exchange(port, `GET ${target} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`);

const status = (answer: string) => /^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1];

describe("the Host written into documents and pages", () => {
  it("a forged Host gets 400 for ?WSDL, ?disco and an operation's page, and is never written", async () => {
    const port = await scaffolded();
    for (const target of ["/api.asmx?WSDL", "/api.asmx?disco", "/api.asmx?op=GetMessages"]) {
      const answer = await get(port, target, "Host: evil.example:8089\r\n");
      expect([target, status(answer)]).toEqual([target, "400"]);
      expect(answer).not.toContain("evil.example");
    }
    // A Host that only ends in a local name, or carries two ports, names no host at all.
    for (const host of ["evil.example:.localhost", "localhost:1:2", "evil]x.localhost"]) {
      const answer = await get(port, "/api.asmx?WSDL", `Host: ${host}\r\n`);
      expect([host, status(answer)]).toEqual([host, "400"]);
    }
    const own = await get(port, "/api.asmx?WSDL", `Host: localhost:${port}\r\n`);
    expect(status(own)).toBe("200");
    expect(own).toContain(`location="http://localhost:${port}/api.asmx"`);
  });

  it("allowedHosts lists the names followed; another is still refused", async () => {
    const port = await scaffolded({}, ["api.example.com", "*.example.net"]);
    const listed = await get(port, "/api.asmx?WSDL", "Host: a.example.net:81\r\n");
    expect(listed).toContain('location="http://a.example.net:81/api.asmx"');
    expect(status(await get(port, "/api.asmx?WSDL", "Host: localhost\r\n"))).toBe("400");
    for (const host of ["evil.example:.example.net", "evil.example:80:.example.net"])
      expect([host, status(await get(port, "/api.asmx?WSDL", `Host: ${host}\r\n`))]).toEqual([
        host,
        "400",
      ]);
  });
});

describe("connection caps", () => {
  it(
    "20 idle connections from one address against a cap of 8: 8 held, 12 answered 503",
    { timeout: 5_000 },
    async () => {
      const port = await scaffolded({ maxConnectionsPerAddress: 8 });
      const all = await Promise.all(Array.from({ length: 20 }, () => open(port)));
      // Refused connections are answered within the grace they get to send a request (2 s).
      const refused = await Promise.all(all.slice(8).map((c) => c.closed));
      for (const answer of refused) {
        expect(status(answer)).toBe("503");
        expect(answer).toMatch(/\r\nRetry-After: 1\r\n/i);
      }
      expect(all.slice(0, 8).filter((c) => c.socket.destroyed)).toHaveLength(0);
    },
  );
});

describe("timeouts", () => {
  it(
    "a connection that never finishes its headers is closed at the header timeout",
    { timeout: 5_000 },
    async () => {
      const port = await scaffolded({ headersTimeoutMs: 300, requestTimeoutMs: 20_000 });
      const slow = await open(port);
      slow.socket.write("GET /api.asmx?WSDL HTTP/1.1\r\nHost: localhost\r\n");
      // Without the header timeout (the request's is 20 s), or with Node's 30 s check interval,
      // this outlasts the test.
      expect(status(await slow.closed)).toBe("408");
    },
  );
});

const expectHuge =
  "POST /api.asmx HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/xml; charset=utf-8\r\n" +
  "Content-Length: 500000000\r\nExpect: 100-continue\r\n\r\n";

describe("Expect: 100-continue", () => {
  it("a declared body over the limit gets 413 and no 100 Continue", async () => {
    const port = await scaffolded();
    const answer = await exchange(port, expectHuge);
    expect(status(answer)).toBe("413");
    expect(answer).not.toContain("100 Continue");
  });
});

describe("the test form", () => {
  const page = (port: number, forwarded: string) =>
    get(port, "/api.asmx?op=GetMessages", `Host: localhost\r\n${forwarded}`);

  it("is not shown when a proxy on this machine relays a remote client", async () => {
    const port = await scaffolded();
    expect(await page(port, "")).toContain('<form class="test"');
    for (const header of [
      "X-Forwarded-For: 203.0.113.9\r\n",
      "X-Forwarded-For: 127.0.0.1, 203.0.113.9\r\n",
      'Forwarded: for="[2001:db8::1]:443"\r\n',
      "X-Real-IP: 198.51.100.2\r\n",
      "Via: 1.1 proxy\r\n",
      // A proxy that says it relayed, but not for whom.
      "Forwarded: proto=https;host=api.example.com\r\n",
      'Forwarded: for="203.0.113.9:443"\r\n',
    ]) {
      const answer = await page(port, header);
      expect([header, answer.includes('<form class="test"')]).toEqual([header, false]);
      expect(answer).toContain("only available for requests from the local machine");
    }
    expect(await page(port, "X-Forwarded-For: 127.0.0.1, ::1\r\n")).toContain('<form class="test"');
    expect(await page(port, 'Forwarded: for="127.0.0.1:5000"\r\n')).toContain('<form class="test"');
  });

  it("refuses the form's post a proxy relays", async () => {
    const port = await scaffolded();
    const body = "email=a&password=b";
    const answer = await exchange(
      port,
      "POST /api.asmx?op=GetMessages HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-For: 203.0.113.9\r\n" +
        "Content-Type: application/x-www-form-urlencoded\r\nConnection: close\r\n" +
        `Content-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(status(answer)).toBe("403");
  });
});

describe("harden, on an application's own server", () => {
  it("caps connections and refuses an oversized Expect: 100-continue body before it is sent", async () => {
    const server = nodeServer((req, res) => {
      req.resume();
      req.on("end", () => res.end("ok"));
    });
    const port = await listening(harden(server, { maxConnectionsPerAddress: 2, maxBodyBytes: 10 }));
    const huge = await exchange(port, expectHuge);
    expect([status(huge), huge.includes("100 Continue")]).toEqual(["413", false]);
    const small = await exchange(
      port,
      "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nExpect: 100-continue\r\nConnection: close\r\n\r\nhi",
    );
    expect(small).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK/);
    const all = await Promise.all(Array.from({ length: 4 }, () => open(port)));
    for (const answer of await Promise.all(all.slice(2).map((c) => c.closed)))
      expect(status(answer)).toBe("503");
  });

  it("is refused once the server listens, and refuses a header timeout longer than the request's", async () => {
    const port = await listening(nodeServer());
    expect(port).toBeGreaterThan(0);
    expect(() => harden(servers[0]!)).toThrow(/before server.listen/);
    expect(() =>
      harden(nodeServer(), { headersTimeoutMs: 5_000, requestTimeoutMs: 1_000 }),
    ).toThrow(/must not exceed/);
    expect(() => createServer([], { maxConnections: 0 })).toThrow(/at least 1/);
  });
});

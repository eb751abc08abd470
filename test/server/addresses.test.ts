/**
 * Addresses exactly as the WSDL gives them (issue #32): a trailing slash is kept by the client and
 * served by the server, ?WSDL included; without one, ASMX's reading of an added slash stays.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateAndImport, type Generated } from "../support/generated.js";
import { WSDL_PATH } from "../support/captures.js";
import { listen, recordingServer, type Loopback } from "../support/loopback.js";
import { loadWsdl } from "../../src/generate.js";
import { tempDir, writeTemp } from "../support/tmp.js";
import type { RequestListener } from "../../runtime/src/index.js";

interface Module {
  createApiHandler(impl: object): RequestListener;
  ApiClient: new (o: { endpoint?: string; port?: string }) => {
    getMessages(i: { email: string; password: string }): Promise<unknown[]>;
  };
}

const SLASHED = readFileSync(WSDL_PATH, "utf8").replaceAll(
  'location="http://127.0.0.1:8089/api.asmx"',
  'location="http://127.0.0.1:8089/admin/1.3/"',
);
const impl = {
  getMessages: () => [{ Id: 1, UserId: 2, DateArrived: "2024-01-05T10:00:00" }],
  getMessagesInDateRange: () => [],
  deleteMessage: () => true,
};
const PORTS = ["ApiSoap", "ApiSoap12", "ApiHttpGet", "ApiHttpPost"];

describe("an address that ends in a slash", () => {
  let g: Generated<Module>;
  let s: Loopback;
  beforeAll(async () => {
    g = await generateAndImport<Module>(SLASHED, "slashed.wsdl");
    s = await listen(g.mod.createApiHandler(impl));
  });
  afterAll(() => s.close());

  it("is served at that path, ?wsdl too, with the slash in the served addresses", async () => {
    const wsdl = await fetch(`${s.url}/admin/1.3/?wsdl`);
    expect(wsdl.status).toBe(200);
    const text = await wsdl.text();
    expect(text).toContain(`location="${s.url}/admin/1.3/"`);
    // A client that drops the slash still reaches it.
    expect((await fetch(`${s.url}/admin/1.3?wsdl`)).status).toBe(200);
    for (const port of PORTS) {
      const client = new g.mod.ApiClient({ endpoint: `${s.url}/admin/1.3/`, port });
      expect(await client.getMessages({ email: "a", password: "b" }), port).toHaveLength(1);
    }
  });

  it("the client sends to the address with its slash, and HTTP operations one slash below", async () => {
    const rec = await recordingServer((_req, res) => res.writeHead(500).end());
    try {
      for (const port of PORTS) {
        const client = new g.mod.ApiClient({ endpoint: `${rec.url}/admin/1.3/`, port });
        await client.getMessages({ email: "a", password: "b" }).catch(() => undefined);
      }
      expect(rec.requests.map((r) => r.url.replace(/\?.*/, ""))).toEqual([
        "/admin/1.3/",
        "/admin/1.3/",
        "/admin/1.3/GetMessages",
        "/admin/1.3/GetMessages",
      ]);
    } finally {
      await rec.close();
    }
  });
});

const RELATIVE = readFileSync(WSDL_PATH, "utf8").replaceAll(
  'location="http://127.0.0.1:8089/api.asmx"',
  'location="Recruiting"',
);

describe("a relative address", () => {
  it("read from a file: a located warning per port, refused by --strict", async () => {
    const file = writeTemp(tempDir(), "relative.wsdl", RELATIVE);
    const r = await loadWsdl(file);
    const warned = r.diagnostics.filter((d) => d.code === "WSDL_ADDRESS_RELATIVE");
    const line = RELATIVE.split("\n").findIndex((l) => l.includes('<wsdl:port name="ApiSoap"')) + 1;
    expect(warned).toHaveLength(4);
    expect(warned[0]).toMatchObject({ file, line, severity: "warning" });
    expect(warned[0]!.message).toContain('location="Recruiting", which is not an absolute');
    expect(warned[0]!.message).toContain("must be given an endpoint");
    const strict = await loadWsdl(file, { strict: true });
    expect(strict.model).toBeUndefined();
  });

  it("read from a URL: resolved against it, as .NET does", async () => {
    const s = await listen((_req, res) => res.end(RELATIVE));
    try {
      const r = await loadWsdl(`${s.url}/hr/Service.svc?wsdl`);
      const addresses = r.model!.services[0]!.ports.map((p) => p.address);
      expect(addresses).toEqual(Array(4).fill(`${s.url}/hr/Recruiting`));
      expect(r.diagnostics.find((d) => d.code === "WSDL_ADDRESS_RELATIVE")!.message).toContain(
        `resolved against the URL the WSDL was read from: ${s.url}/hr/Recruiting`,
      );
    } finally {
      await s.close();
    }
  });

  it("a client built without an endpoint says so when constructed, not when called", async () => {
    const g = await generateAndImport<Module>(RELATIVE, "relative.wsdl");
    expect(() => new g.mod.ApiClient({})).toThrow(
      /port ApiSoap of service Api has no absolute address in its WSDL \("Recruiting"\); expected the endpoint option/,
    );
    expect(() => new g.mod.ApiClient({ endpoint: "http://127.0.0.1:1/x" })).not.toThrow();
  });
});

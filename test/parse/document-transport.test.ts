/**
 * The transport a WSDL's documents are read with: the proxy is chosen for each document's URL (an
 * import from another host goes through it though the root's host is in NO_PROXY), credentials go
 * where credentials.ts's rule says, and `--auth` credentials given for a file are warned about.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { basic } from "../../runtime/src/index.js";
import { loadDocuments } from "../../src/parse/loader.js";
import { credentialsGo } from "../../src/parse/credentials.js";
import { serverPerTest, listen, type Loopback } from "../support/loopback.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const servers = serverPerTest(afterEach);
const proxies: Loopback[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const p of proxies.splice(0)) await p.close();
});

const XS = "http://www.w3.org/2001/XMLSchema";
const wsdlImporting = (location: string) =>
  `<?xml version="1.0"?>\n<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:s="${XS}" targetNamespace="urn:t"><wsdl:types><s:schema targetNamespace="urn:t"><s:import namespace="urn:d" schemaLocation="${location}"/></s:schema></wsdl:types></wsdl:definitions>`;
const schema = `<?xml version="1.0"?>\n<s:schema xmlns:s="${XS}" targetNamespace="urn:d"/>`;

describe("the documents of a WSDL read by URL", () => {
  it("reads an import from another host through the proxy NO_PROXY exempts the root from", async () => {
    const root = await servers.serve((req, res) => {
      res.end(wsdlImporting("http://schemas.example/d.xsd"));
    });
    const seen: string[] = [];
    const proxy = await listen((req, res) => {
      seen.push(req.url!);
      res.end(schema);
    });
    proxies.push(proxy);
    vi.stubEnv("http_proxy", proxy.url);
    vi.stubEnv("no_proxy", "127.0.0.1");
    vi.stubEnv("NO_PROXY", "127.0.0.1");
    const loaded = await loadDocuments(`${root.url}/service.wsdl`);
    expect(seen).toEqual(["http://schemas.example/d.xsd"]);
    expect(loaded.schemas.map((s) => s.targetNamespace)).toContain("urn:d");
  });

  it("sends credentials to the root's host only, never from https down to http", () => {
    const https = { hostname: "a.example", https: true };
    expect(credentialsGo(new URL("https://a.example:8443/x"), https)).toBe(true);
    expect(credentialsGo(new URL("http://a.example/x"), https)).toBe(false);
    expect(credentialsGo(new URL("https://b.example/x"), https)).toBe(false);
    expect(credentialsGo(new URL("http://a.example/x"), { ...https, https: false })).toBe(true);
  });
});

describe("a WSDL read from a file", () => {
  it("warns that --auth credentials given for it were not sent", async () => {
    const file = writeTemp(tempDir(), "local.wsdl", wsdlImporting("d.xsd"));
    writeTemp(file.replace(/local\.wsdl$/, ""), "d.xsd", schema);
    const auth = basic({ username: "u", password: "p" });
    const loaded = await loadDocuments(file, { transport: { auth } });
    const warning = loaded.warnings.find((w) => w.code === "INPUT_HEADERS_UNUSED");
    expect(warning?.message).toMatch(/^Basic credentials are sent only to the host of a WSDL/);
    const both = await loadDocuments(file, { transport: { auth }, headers: { "X-A": "1" } });
    expect(both.warnings.find((w) => w.code === "INPUT_HEADERS_UNUSED")?.message).toMatch(
      /^headers and Basic credentials are sent only/,
    );
  });
});

/**
 * Issue #37's options, over real sockets: a configured public URL for the ?WSDL and ?disco
 * addresses (the Host header only without one), `X-Content-Type-Options: nosniff` on every answer,
 * and serving only some bindings.
 */
import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { ALICE } from "./helpers.js";
import { getMessages, serveOnSocket } from "./wire.js";

/** GET `url` with a Host header of our choosing (fetch does not let one be set). */
function getWithHost(url: string, host: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Host: host } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the addresses in ?WSDL and ?disco", () => {
  it("follow the configured public URL, whatever the Host header says", async () => {
    const { url } = await serveOnSocket({ publicUrl: "https://api.example.com" });
    for (const suffix of ["?WSDL", "?disco"]) {
      const { status, text } = await getWithHost(url + suffix, "evil.example:666");
      expect(status).toBe(200);
      expect(text).not.toContain("evil.example");
      expect(text).toContain('"https://api.example.com/api.asmx"');
    }
  });

  it("keep the path of a public URL behind a proxy, in documents and in the help's samples", async () => {
    const { url } = await serveOnSocket({ publicUrl: "https://gw.example.com/messages/" });
    for (const suffix of ["?WSDL", "?disco"]) {
      const { text } = await getWithHost(url + suffix, "evil.example:666");
      expect(text).toContain('"https://gw.example.com/messages/api.asmx"');
    }
    const help = await getWithHost(`${url}?op=GetMessages`, "evil.example:666");
    expect(help.text).toContain("POST /messages/api.asmx HTTP/1.1");
    expect(help.text).toContain("Host: gw.example.com");
    expect(help.text).not.toContain("evil.example");
  });

  it("follow a Host header that allowedHosts lists, when no public URL is set", async () => {
    const { url } = await serveOnSocket({ allowedHosts: ["other.example"] });
    const { text } = await getWithHost(`${url}?WSDL`, "other.example:8080");
    expect(text).toContain('location="http://other.example:8080/api.asmx"');
    const forged = await getWithHost(`${url}?WSDL`, "evil.example:8080");
    expect(forged.status).toBe(400);
    expect(forged.text).not.toContain("evil.example");
  });

  it("refuse a public URL that is not http or https", async () => {
    await expect(serveOnSocket({ publicUrl: "ftp://x.example" })).rejects.toThrow(/http or https/);
    await expect(serveOnSocket({ publicUrl: "https://x.example/?a=1" })).rejects.toThrow(
      /no query, fragment or credentials/,
    );
  });
});

describe("nosniff", () => {
  it("is on every kind of answer: documents, SOAP, HTTP errors, unknown paths", async () => {
    const { url } = await serveOnSocket();
    const answers = [
      await fetch(`${url}?WSDL`),
      await fetch(url),
      await fetch(`${url}/nowhere?<b>`),
      await fetch(`${url}/GetMessages?email=x`),
    ];
    for (const res of answers) {
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      await res.text();
    }
    expect((await getMessages(url, ALICE)).headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("serving only some bindings", () => {
  it("serves SOAP alone when asked, advertises only it, and refuses an unknown port name", async () => {
    const { url } = await serveOnSocket({ bindings: ["ApiSoap", "ApiSoap12"] });
    expect((await getMessages(url, ALICE)).status).toBe(200);
    const creds = `email=${encodeURIComponent(ALICE.email)}&password=${ALICE.password}`;
    const get = await fetch(`${url}/GetMessages?${creds}`);
    expect(get.status).toBe(404);
    const post = await fetch(`${url}/GetMessages`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: creds,
    });
    expect(post.status).toBe(404);
    const wsdl = await (await fetch(`${url}?WSDL`)).text();
    const ports = [...wsdl.matchAll(/<wsdl:port name="(\w+)"/g)].map((m) => m[1]);
    expect(ports).toEqual(["ApiSoap", "ApiSoap12"]);
    // The bindings themselves stay: a port left out is not advertised, its binding is harmless.
    expect(wsdl).toContain('<wsdl:binding name="ApiHttpGet"');
    await expect(serveOnSocket({ bindings: ["ApiSoap", "HttpGet"] })).rejects.toThrow(
      /unknown port HttpGet: Api has ApiSoap, ApiSoap12, ApiHttpGet, ApiHttpPost/,
    );
  });
});

/**
 * Swagger UI for the gateway (@wsdl-tsgen/gateway's docsHandler) on a loopback socket: the page
 * and each asset answer with their content type and the strict CSP, the assets are
 * swagger-ui-dist's own bytes, nothing in the page or its initializer points off-host, and no
 * path outside the fixed list (`..`, encoded or not) is served.
 */
import { readFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOCS_CSP, docsHandler } from "@wsdl-tsgen/gateway";

const DIST = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
let server: Server;
let base: string;

beforeAll(async () => {
  const docs = docsHandler({ title: 'Api <&> "x"' });
  server = createServer((req, res) => {
    if (docs(req, res)) return;
    res.writeHead(418).end("not docs");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server?.close());

/** A GET of `raw` sent as is: fetch would normalise `..` away before it left. */
function rawGet(raw: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/`, { path: raw }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("docsHandler", () => {
  it("answers / with a page that loads only the gateway's own assets", async () => {
    const res = await fetch(`${base}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toBe(DOCS_CSP);
    expect(DOCS_CSP).toContain("script-src 'self'");
    expect(DOCS_CSP).not.toContain("unsafe-inline");
    const html = await res.text();
    expect(html).toContain("<title>Api &#60;&#38;&#62; &#34;x&#34;</title>");
    expect(html).not.toMatch(/https?:|\/\//);
    const scripts = [...html.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts.map((m) => m[1])).toEqual([
      ' src="docs/swagger-ui-bundle.js"',
      ' src="docs/swagger-initializer.js"',
    ]);
    expect(scripts.every((m) => m[2] === "")).toBe(true);
    expect(html).toContain('href="docs/swagger-ui.css"');
  });

  it("serves each asset with its type, swagger-ui-dist's bytes and the CSP", async () => {
    const assets: [string, string, string | undefined][] = [
      ["swagger-ui-bundle.js", "text/javascript; charset=utf-8", "swagger-ui-bundle.js"],
      ["swagger-ui.css", "text/css; charset=utf-8", "swagger-ui.css"],
      ["favicon-32x32.png", "image/png", "favicon-32x32.png"],
      ["swagger-initializer.js", "text/javascript; charset=utf-8", undefined],
    ];
    for (const [name, type, dist] of assets) {
      const res = await fetch(`${base}/docs/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get("content-type"), name).toBe(type);
      expect(res.headers.get("content-security-policy"), name).toBe(DOCS_CSP);
      expect(res.headers.get("x-content-type-options"), name).toBe("nosniff");
      const body = Buffer.from(await res.arrayBuffer());
      if (dist !== undefined)
        expect(body.equals(readFileSync(path.join(DIST, dist))), name).toBe(true);
      else {
        const text = body.toString("utf8");
        expect(text).toContain('url: "openapi.json"');
        expect(text).toContain("validatorUrl: null");
        expect(text).not.toMatch(/https?:|\/\//);
      }
    }
  });

  it("refuses every other path under /docs/, traversal included", async () => {
    const refused = [
      "/docs/../package.json",
      "/docs/..%2fpackage.json",
      "/docs/%2e%2e/package.json",
      "/docs/%2E%2E%2Fpackage.json",
      "/docs/..\\package.json",
      "/docs/swagger-ui-dist/package.json",
      "/docs/index.html",
      "/docs/swagger-ui-bundle.js.map",
      "/docs/constructor",
      "/docs/__proto__",
      "/docs/",
    ];
    for (const raw of refused) {
      const { status, body } = await rawGet(raw);
      expect(status, raw).toBe(404);
      expect(body, raw).toBe("Not found\n");
    }
  });

  it("answers GET and HEAD only, and leaves other requests to the caller", async () => {
    for (const [method, url] of <[string, string][]>[
      ["POST", "/"],
      ["POST", "/docs/swagger-ui.css"],
      ["PUT", "/"],
    ])
      expect((await fetch(`${base}${url}`, { method, body: "{}" })).status, url).toBe(418);
    const head = await fetch(`${base}/docs/swagger-ui.css`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    for (const other of ["/openapi.json", "/GetMessages", "/docsx", "/package.json"])
      expect((await fetch(`${base}${other}`)).status, other).toBe(418);
  });
});

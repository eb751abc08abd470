/**
 * Swagger UI for the JSON gateway (`npm start -- --docs`): `GET /` answers a page that loads
 * swagger-ui-dist's bundle and stylesheet from the gateway's own `/docs/` paths, never a CDN, and
 * shows the document at `openapi.json`. Only a fixed list of file names is served under `/docs/`
 * (no path from the request reaches the file system), and every answer carries a strict
 * Content-Security-Policy: scripts from the gateway only, none inline.
 */
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import * as path from "node:path";

export interface DocsOptions {
  /** The page's title, e.g. the service's name. */
  readonly title?: string;
}

/** Answers GET (and HEAD) of `/` and `/docs/*`; `false` for any other request, the caller's. */
export type DocsHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

/** What the page may load: its own scripts and styles, images inline (Swagger UI's icons). */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * Starts Swagger UI on the document beside the page (relative, so that a gateway behind a path
 * prefix still finds it), served as a file since the CSP allows no inline script. No validator
 * badge: it would send the document to swagger.io.
 */
const INITIALIZER = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "openapi.json",
    dom_id: "#swagger-ui",
    validatorUrl: null,
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
});
`;

/** The files served under `/docs/`: from swagger-ui-dist, or the initializer above. */
const ASSETS: Readonly<Record<string, { readonly type: string; readonly dist?: string }>> = {
  "swagger-ui-bundle.js": { type: "text/javascript; charset=utf-8", dist: "swagger-ui-bundle.js" },
  "swagger-ui.css": { type: "text/css; charset=utf-8", dist: "swagger-ui.css" },
  "favicon-32x32.png": { type: "image/png", dist: "favicon-32x32.png" },
  "swagger-initializer.js": { type: "text/javascript; charset=utf-8" },
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The index page: only relative, same-origin URLs. */
export function docsPage(title = "API"): string {
  const t = escapeHtml(title);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${t}</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
<link rel="icon" type="image/png" href="docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/swagger-initializer.js"></script>
</body>
</html>
`;
}

/** swagger-ui-dist's folder, wherever the package manager put it. */
function distFolder(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve("swagger-ui-dist/package.json"));
}

function answer(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
): void {
  res.writeHead(status, {
    "content-type": type,
    "content-security-policy": DOCS_CSP,
    "x-content-type-options": "nosniff",
    "cache-control": "no-cache",
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

/**
 * The handler of the docs page and its assets, read from swagger-ui-dist once, when first asked.
 */
export function docsHandler(options: DocsOptions = {}): DocsHandler {
  const page = docsPage(options.title);
  const cache = new Map<string, Promise<Buffer>>();
  let folder: string | undefined;
  // A failed read is not kept: the next request tries again (a package being reinstalled, say).
  const load = async (file: string) => {
    folder ??= distFolder();
    let body = cache.get(file);
    if (body === undefined) cache.set(file, (body = readFile(path.join(folder, file))));
    return body.catch((e: unknown) => {
      cache.delete(file);
      throw e;
    });
  };
  return (req, res) => {
    // The raw path, not a normalised one: `/docs/../x` must not become `/x` and escape the list.
    const url = (req.url ?? "/").split("?")[0]!;
    // Only GET and HEAD of `/` and `/docs/*`: the rest (a POST to an operation named "docs") is
    // the gateway's.
    const read = req.method === "GET" || req.method === "HEAD";
    if (!read || (url !== "/" && !url.startsWith("/docs/"))) return false;
    const text = "text/plain; charset=utf-8";
    if (url === "/") {
      answer(req, res, 200, "text/html; charset=utf-8", page);
      return true;
    }
    const name = url.slice("/docs/".length);
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (asset === undefined) {
      answer(req, res, 404, text, "Not found\n");
      return true;
    }
    if (asset.dist === undefined) {
      answer(req, res, 200, asset.type, INITIALIZER);
      return true;
    }
    load(asset.dist).then(
      (body) => answer(req, res, 200, asset.type, body),
      (e: unknown) => {
        const code = (e as NodeJS.ErrnoException).code;
        const why = code === "MODULE_NOT_FOUND" ? "is not installed" : `cannot be read (${code})`;
        answer(req, res, 500, text, `swagger-ui-dist ${why}\n`);
      },
    );
    return true;
  };
}

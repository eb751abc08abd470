/**
 * The HTML frame of the help pages: escaping, the style sheet and the headers every page carries.
 * The pages hold no script at all, and their one style block is allowed by its hash, so the
 * Content-Security-Policy forbids every inline script and every other source.
 */
import { createHash } from "node:crypto";
import { STAND_INS } from "../../descriptors/sample-values.js";

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) =>
    c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&#39;",
  );
}

// Kept in the spirit of ASMX's page: grey panels, small Arial, placeholders in dark blue.
const STYLE = `body{font-family:Arial,sans-serif;margin:20px;font-size:small}
.title{color:dimgray;font-size:20pt;font-weight:900}
.label{font-size:small;font-weight:bold;color:darkgray}
.layout{display:flex;gap:15px;align-items:flex-start}
.panel{background-color:whitesmoke;border:solid 1px silver;padding:15px}
.side{width:170px;flex:none}
.main{flex:1;min-width:0}
.method{display:block;margin:3px 0;color:black}
table.params{border-collapse:collapse}
table.params td,table.params th{background-color:gainsboro;padding:3px 8px;text-align:left}
pre.code{background-color:white;border:solid 1px silver;padding:7px;font-family:Courier,monospace;font-size:10pt;overflow-x:auto;white-space:pre-wrap}
.ph{color:darkblue;font-weight:bold}
.ph.opt::after{content:" (optional)";color:gray;font-weight:normal;font-style:italic}
.fault{color:#a00;font-weight:bold}
form.test td{padding:3px 8px}
input{border:solid 1px gray}`;

const STYLE_HASH = createHash("sha256").update(STYLE).digest("base64");

/** The headers of every help page: no script, no framing, no type sniffing. */
const HELP_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "same-origin",
};

/** A help page to send: status, HTML and the headers above. */
export interface HelpResponse {
  readonly status: number;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** A whole page of the service `name`: `side` and `main` are HTML. */
export function htmlPage(status: number, name: string, side: string, main: string): HelpResponse {
  const body = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(name)} Web Service</title><style>${STYLE}</style></head>
<body><div class="title"><span class="label">Web Service</span><br>${escapeHtml(name)}</div>
<div class="layout"><nav class="panel side">${side}</nav><main class="panel main">${main}</main></div>
</body></html>`;
  return { status, body, headers: HELP_HEADERS };
}

/**
 * A stand-in value (`value`, written as `shown`) shown as its type name, what was written kept in
 * `data-value` (escaped already); other text as it was.
 */
function standIn(shown: string, value: string): string {
  const s = STAND_INS.get(value);
  if (!s) return shown;
  const cls = s.optional ? "ph opt" : "ph";
  return `<span class="${cls}" data-value="${shown}">${s.kind}</span>`;
}

/** A query or form value as it was before encoding (`+` for a space); itself when malformed. */
function formDecoded(v: string): string {
  try {
    return decodeURIComponent(v.replace(/\+/g, " "));
  } catch {
    return v;
  }
}

/**
 * A sample message as HTML: escaped, with each stand-in value (element text, attribute value or
 * query/form value that is exactly one) shown as its type name.
 */
export function sampleHtml(text: string): string {
  return escapeHtml(text)
    .replace(/(&gt;)([^&<\n]+)(?=&lt;)/g, (_, b: string, v: string) => b + standIn(v, v))
    .replace(/(=&quot;)([^&<\n]+)(?=&quot;)/g, (_, b: string, v: string) => b + standIn(v, v))
    .replace(
      /((?:\?|&amp;|^)[^=&\s;]+=)([^&\s]+)(?=&amp;|\s|$)/gm,
      (_, b: string, v: string) => b + standIn(v, formDecoded(v)),
    );
}

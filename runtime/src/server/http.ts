/**
 * The HTTP GET and POST bindings: an operation's parameters from the query or a form, its result as
 * an XML document.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseAsmxDateTime } from "../scalars/asmx-dates.js";
import { parseContentType } from "../http/content-type.js";
import type { SoapFault } from "../errors.js";
import { decodeHttpParams, HttpParamError } from "../http/binding.js";
import type { HttpOperationDesc } from "../descriptors/operations.js";
import { parseScalar, ValueFormatError } from "../scalars/scalars.js";
import { decodeText, readBody } from "./body.js";
import { bodyValue, context, implementationError, invoke, type Served } from "./call.js";
import { messageText } from "../support/input-text.js";
import { answerStreamed, streamedResult } from "./stream.js";
import { faultHeaders, faultStatus, HttpProblem, send } from "./respond.js";
import { httpRouted, type HttpRoute } from "./routes.js";
import { httpPort, type Endpoint } from "./table.js";
import { writeElement } from "../xml/writer.js";
import { withXsiTypes } from "../xml/xsi-types.js";
import { XSD_NS, XSI_NS } from "../xml/namespaces.js";

/** Answers a request below an endpoint's path, `opName` being the rest of the path. */
export async function handleHttp(
  s: Served,
  req: IncomingMessage,
  res: ServerResponse,
  ep: Endpoint,
  opName: string,
  query: URLSearchParams,
): Promise<void> {
  const method = req.method ?? "GET";
  const getPort = httpPort(ep, "GET");
  const postPort = httpPort(ep, "POST");
  const allow = [getPort && "GET", postPort && "POST"].filter(Boolean).join(", ");
  if ((method !== "GET" && method !== "POST") || (method === "GET" ? !getPort : !postPort)) {
    if (!getPort && !postPort) throw new HttpProblem(404, "Not found.");
    throw new HttpProblem(405, `The method ${method} is not allowed here; use ${allow}.`, {
      Allow: allow,
    });
  }
  if (opName === "")
    throw new HttpProblem(
      500,
      `Request format is unrecognized: the URL ends in '${ep.path}/' without an operation name.`,
    );
  // Every port of the verb at this path (a service may have several, with different bindings).
  const operations = httpRouted(ep.ports, method === "GET" ? "httpGet" : "httpPost");
  const route = operations.find((r) => r.op.location.replace(/^\//, "") === opName);
  if (!route) {
    const other = operations.find(
      (r) => r.op.location.replace(/^\//, "").toLowerCase() === opName.toLowerCase(),
    );
    if (other)
      throw new HttpProblem(
        500,
        `Invalid method name '${opName}': method names are case sensitive; the method name '${other.name}' is correct.`,
      );
    throw new HttpProblem(500, `${opName} is not a valid Web Service method name.`);
  }
  return serveHttp(s, req, res, route, query);
}

/**
 * Answers a request routed to an HTTP GET or POST operation: its parameters in, its result document
 * out.
 */
export async function serveHttp(
  s: Served,
  req: IncomingMessage,
  res: ServerResponse,
  route: HttpRoute,
  query: URLSearchParams,
): Promise<void> {
  // They carry no SOAP header, so no signature: a service that verifies SOAP requests must not
  // answer the same operations unverified here.
  if (s.security)
    throw new HttpProblem(
      403,
      "This service answers only SOAP requests whose security it can verify; HTTP GET and POST carry none.",
    );
  const { port, name, op } = route;
  const input = httpInput(op, await httpParams(s, req, res, route, query));
  let result: unknown;
  try {
    result = await invoke(s, name, input, context(req, port, name));
  } catch (e) {
    const f = e as SoapFault;
    throw new HttpProblem(faultStatus(f), f.message, faultHeaders(f));
  }
  if (!op.response) return send(res, 200, "", undefined);
  const streamed = streamedResult(result, op.response);
  if (streamed) {
    const r = await answerStreamed(streamTarget(s, res, name), streamed, false);
    if (r === undefined) return;
    result = r.whole;
  }
  send(res, 200, resultDocument(s, route, result), XML_CT);
}

const XML_CT = "text/xml; charset=utf-8";
const XML_DECL = '<?xml version="1.0" encoding="utf-8"?>\n';
const ROOT_DECLS = ` xmlns:xsd="${XSD_NS}" xmlns:xsi="${XSI_NS}"`;

/** Where a streamed result (stream.ts) is written: an XML document; early errors as thrown. */
function streamTarget(s: Served, res: ServerResponse, name: string) {
  return {
    res,
    contentType: XML_CT,
    before: XML_DECL,
    after: "",
    rootExtra: ROOT_DECLS,
    xsiTypeAlways: s.xsiTypeAlways,
    log: s.log,
    what: `${s.service.name}.${name}`,
    failEarly: (e: unknown) => {
      const f = implementationError(s, name, e);
      send(
        res,
        faultStatus(f),
        messageText(f.message),
        "text/plain; charset=utf-8",
        faultHeaders(f),
      );
    },
  };
}

/** The parameters of a request: its query, or over POST its form. */
async function httpParams(
  s: Served,
  req: IncomingMessage,
  res: ServerResponse,
  { port, op }: HttpRoute,
  query: URLSearchParams,
): Promise<URLSearchParams> {
  // The parameters of a urlReplacement or GET operation came in its URL: a body, if any, is not
  // read. Drained now rather than by node:http after the response: answering a request not yet
  // consumed cost GET 10–30 µs more CPU per request in the server bench, mostly system time.
  if (op.replace || port.protocol !== "httpPost") {
    req.resume();
    return query;
  }
  const ct = parseContentType(req.headers["content-type"]);
  const body = await readBody(req, res, s.maxBody, s.timeoutMs);
  if (ct.type !== "application/x-www-form-urlencoded" && !(ct.type === "" && body.length === 0)) {
    throw new HttpProblem(
      415,
      `The Content-Type '${ct.type || "(none)"}' is not supported here; expected application/x-www-form-urlencoded.`,
    );
  }
  return new URLSearchParams(decodeText(body, ct.params["charset"]));
}

/** The typed input of an operation from its parameters; dates and times as ASMX writes them too. */
function httpInput(op: HttpOperationDesc, params: URLSearchParams): unknown {
  try {
    return decodeHttpParams(op, params, (p, text) => {
      if (p.type.s === "dateTime") {
        const lexical = parseAsmxDateTime(text);
        if (lexical === undefined) throw new ValueFormatError(`'${text}' is not a date and time`);
        return parseScalar("dateTime", lexical);
      }
      return parseScalar(p.type.s, text);
    });
  } catch (e) {
    if (e instanceof HttpParamError) throw new HttpProblem(500, e.message);
    throw e;
  }
}

/**
 * The response document of an operation's result; one that does not fit its type is the server's
 * fault.
 */
function resultDocument(s: Served, { name, op }: HttpRoute, result: unknown): string {
  const body = op.response!;
  const el = body.element;
  try {
    const out: string[] = [];
    const value = bodyValue(body, result) ?? null;
    withXsiTypes(s.xsiTypeAlways, () =>
      writeElement(out, el.name, el.ns, "", el.type, value, true, el.prop, ROOT_DECLS),
    );
    // Concatenated rather than joined: the encoder flattens the result once; a join would copy
    // the 48 KB document once more (and, in the server bench, had it promoted by the GC).
    const doc = out.length === 1 ? out[0]! : out.join("");
    return XML_DECL + doc;
  } catch (e) {
    s.log(`wsdl-tsgen: ${s.service.name}.${name} returned a value that does not fit its type`, e);
    throw new HttpProblem(500, "Server was unable to process request.");
  }
}

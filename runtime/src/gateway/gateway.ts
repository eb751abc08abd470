/**
 * A JSON gateway over one service: `GET /openapi.json` gives its OpenAPI document (the gateway
 * scaffold's, or `wsdl-tsgen generate --openapi` for a WSDL of one service), and
 * `POST /{operation}` takes the operation's input as JSON (runtime/src/json), calls the backend
 * through a client of the generated service, and answers its result as JSON, or a problem+json
 * (problems.ts). It needs no dependency, so it lives in the runtime; the gateway scaffold serves
 * it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { CallOptions } from "../client/options.js";
import type { UsernameTokenOptions } from "../soap/ws-security.js";
import type { OperationDesc, PortDesc, ServiceDesc } from "../descriptors/operations.js";
import { operationInputFromJson, operationResultToJson } from "../json/json-operations.js";
import { DEFAULT_MAX_BINARY_BYTES, withBinariesRead } from "./binaries.js";
import { failureProblem, problem, type Problem } from "./problems.js";

/**
 * What the gateway calls the backend with: a generated client (`new ApiClient({ … })`), whose
 * method for each operation the service's descriptor names.
 */
export type GatewayClient = object;

type Method = (input: unknown, options?: CallOptions) => Promise<unknown>;

/** The generated client's method for the WSDL operation `name`. */
function methodOf(service: ServiceDesc, client: GatewayClient, name: string): Method {
  const method = Object.entries(service.methods).find(([, op]) => op === name)?.[0];
  const f: unknown = method === undefined ? undefined : Reflect.get(client, method);
  if (typeof f !== "function") throw new Error(`the client has no method for ${name}`);
  return (input, options) => Reflect.apply(f, client, [input, options]) as Promise<unknown>;
}

/** The credentials a request carries for the backend, as the gateway's options pass them on. */
export interface PassedCredentials {
  /** A WS-Security UsernameToken, from the request's Basic credentials (`usernameTokenFrom`). */
  readonly usernameToken?: UsernameTokenOptions;
}

export interface GatewayOptions {
  readonly service: ServiceDesc;
  /** The port whose operations are served (default: the service's default port). */
  readonly port?: string;
  /** The OpenAPI document served at `/openapi.json`. */
  readonly document: object;
  /**
   * The client a request is sent with, given the credentials it carries: one client (with a fixed
   * service account, say) for all, or one per UsernameToken.
   */
  readonly client: (credentials: PassedCredentials) => GatewayClient;
  /** Request headers passed on to the backend as they are (`authorization`, `x-tenant`, …). */
  readonly forwardHeaders?: readonly string[];
  /**
   * A request header holding Basic credentials (`authorization`) that become a WS-Security
   * UsernameToken for the backend, and are not passed on themselves.
   */
  readonly usernameTokenFrom?: string;
  /** The most bytes a request body may have. Default: 1 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * The most bytes of binaries (base64Binary values, attachment parts) one answer carries, as
   * base64, Blobs the client spooled included (read into memory for it). A result over it is
   * answered 502. Default: 16 MiB.
   */
  readonly maxBinaryBytes?: number;
  /** Called with each failure the gateway answered 5xx, for the operator's log (never a secret). */
  readonly log?: (message: string) => void;
}

/** The request handler of a gateway: `http.createServer(createGateway({ … }))`. */
export function createGateway(
  options: GatewayOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const port = portOf(options);
  const documentText = JSON.stringify(options.document);
  return (req, res) => {
    handle(options, port, documentText, req, res).catch((e: unknown) => {
      // A failure nothing above answered (a throwing `client` factory, say): the operator hears
      // of it by name and message, the caller only that the gateway failed.
      const path = (req.url ?? "/").split("?")[0];
      options.log?.(`${req.method ?? "?"} ${path}: the gateway failed: ${describe(e)}`);
      if (!res.headersSent) send(res, problem(500, "The gateway failed"));
      else res.destroy();
    });
  };
}

/**
 * A failure by name and message for the operator's log, any URL's query cut: an HTTP GET
 * binding's URL carries the input's parameters, a password among them perhaps.
 */
function describe(e: unknown): string {
  if (!(e instanceof Error)) return typeof e;
  return `${e.name}: ${e.message}`.replace(/(\bhttps?:\/\/[^\s?#]*)[?#]\S*/gi, "$1?…");
}

/**
 * The operator's log line for a failure answered `problem`: the operation, the problem's title and
 * detail, and the name and message of what caused it (never a secret: see `describe`).
 */
export function failureLine(name: string, problem: Problem, cause?: unknown): string {
  const detail = problem.detail ? `: ${problem.detail}` : "";
  // A fault's message is the detail already.
  const told = cause === undefined || (cause instanceof Error && cause.message === problem.detail);
  return `${name}: ${problem.title}${detail}${told ? "" : ` (${describe(cause)})`}`;
}

function portOf(options: GatewayOptions): PortDesc {
  const name = options.port ?? options.service.defaultPort;
  const port = options.service.ports[name];
  if (port === undefined)
    throw new Error(
      `unknown port '${name}' of service ${options.service.name}; expected one of ${Object.keys(options.service.ports).join(", ")}`,
    );
  return port;
}

async function handle(
  options: GatewayOptions,
  port: PortDesc,
  documentText: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const path = new URL(req.url ?? "/", "http://gateway").pathname;
  if (path === "/openapi.json") {
    if (req.method !== "GET" && req.method !== "HEAD") return notAllowed(res, "GET");
    res.writeHead(200, { "content-type": "application/json" });
    return void res.end(req.method === "HEAD" ? undefined : documentText);
  }
  const name = decodeSegment(path.slice(1));
  const op = name === undefined ? undefined : port.operations[name];
  if (op === undefined || name === undefined)
    return send(res, problem(404, "No such operation", `POST /{operation} or GET /openapi.json`));
  if (req.method !== "POST") return notAllowed(res, "POST");
  const body = await readJson(req, options.maxBodyBytes ?? 1024 * 1024);
  if ("problem" in body) return send(res, body.problem);
  await call(options, op, name, body.json, req, res);
}

async function call(
  options: GatewayOptions,
  op: OperationDesc,
  name: string,
  json: unknown,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const credentials = credentialsOf(options, req);
  if ("problem" in credentials) return send(res, credentials.problem);
  const client = options.client(credentials);
  const headers = forwarded(options, req);
  const answer = await invokeOperation(options.service, client, name, json, { headers }, options);
  if ("problem" in answer) {
    const p = answer.problem;
    if (p.status >= 500) options.log?.(failureLine(name, p, answer.cause));
    return send(res, p);
  }
  if (op.kind === "soap" && op.oneWay) return void res.writeHead(204).end();
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(answer.json));
}

/**
 * Calls the operation `name` (of the client's port) with its input as JSON: the result as JSON
 * (null for none), or the problem any failure is answered with and the error that caused it (for
 * the operator's log: `failureLine`). Binaries are base64, a Blob's read within `maxBinaryBytes`
 * (binaries.ts). What the HTTP gateway and the MCP tools share.
 */
export async function invokeOperation(
  service: ServiceDesc,
  client: GatewayClient,
  name: string,
  json: unknown,
  callOptions: CallOptions = {},
  { maxBinaryBytes = DEFAULT_MAX_BINARY_BYTES }: { readonly maxBinaryBytes?: number } = {},
): Promise<{ json: unknown } | { problem: Problem; cause?: unknown }> {
  const portName: unknown = Reflect.get(client, "port");
  const port = service.ports[typeof portName === "string" ? portName : service.defaultPort];
  const op = port?.operations[name];
  if (op === undefined) return { problem: problem(404, "No such operation", name) };
  try {
    const input = operationInputFromJson(op, json);
    const answer = await methodOf(service, client, name)(input, callOptions);
    const out = await withBinariesRead(answer, maxBinaryBytes, (inMemory) =>
      operationResultToJson(op, inMemory),
    );
    return { json: out ?? null };
  } catch (e) {
    return { problem: failureProblem(op, e), cause: e };
  }
}

/**
 * The configured headers of the request, to pass on to the backend. The `usernameTokenFrom` header
 * is never among them, even when listed: its password goes on only inside the UsernameToken.
 */
function forwarded(options: GatewayOptions, req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  const withheld = options.usernameTokenFrom?.toLowerCase();
  for (const h of options.forwardHeaders ?? []) {
    if (h.toLowerCase() === withheld) continue;
    const v = req.headers[h.toLowerCase()];
    if (typeof v === "string") out[h] = v;
  }
  return out;
}

/** The UsernameToken the request's Basic credentials stand for, when the gateway takes one. */
function credentialsOf(
  options: GatewayOptions,
  req: IncomingMessage,
): PassedCredentials | { problem: Problem } {
  const from = options.usernameTokenFrom;
  if (from === undefined) return {};
  const v = req.headers[from.toLowerCase()];
  if (typeof v !== "string") return {};
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(v);
  const text = m ? Buffer.from(m[1]!, "base64").toString("utf8") : "";
  const colon = text.indexOf(":");
  if (colon < 0)
    return { problem: problem(401, "Credentials expected as Basic user:password", from) };
  return { usernameToken: { username: text.slice(0, colon), password: text.slice(colon + 1) } };
}

function decodeSegment(s: string): string | undefined {
  try {
    return s === "" || s.includes("/") ? undefined : decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/** The request's JSON body; a problem when it is too big or no JSON. */
async function readJson(
  req: IncomingMessage,
  limit: number,
): Promise<{ json: unknown } | { problem: Problem; cause?: unknown }> {
  const type = req.headers["content-type"] ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type))
    return { problem: problem(415, "Expected a JSON body", "Content-Type: application/json") };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return { problem: problem(413, "The request body is too large") };
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return { json: text.trim() === "" ? undefined : JSON.parse(text) };
  } catch (e) {
    const p = problem(400, "The request body is no JSON", (e as Error).message);
    return { problem: { ...p, pointer: "" } };
  }
}

function notAllowed(res: ServerResponse, allow: string): void {
  res.setHeader("allow", allow);
  send(res, problem(405, "Method not allowed", `expected ${allow}`));
}

function send(res: ServerResponse, p: Problem): void {
  res.writeHead(p.status, { "content-type": "application/problem+json" });
  res.end(JSON.stringify(p));
}

/**
 * The JSON gateway (runtime/src/gateway) in front of the example Message Retrieval Service on a
 * real socket: every operation's answer is the client's result exactly, as JSON the OpenAPI
 * document describes (Ajv, 2020-12); invalid JSON, faults, an unreachable and a silent backend
 * answer problem+json with the specified status, the gateway's own text never a stack trace (a
 * backend fault's text is passed on as sent).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { startServer, type RunningServer } from "../../examples/message-service/server.js";
import { ALICE, SEED_PATH, tempDir } from "../message-service/helpers.js";
import { ApiClient } from "../../generated-samples/message-service/index.js";
import { ApiDesc } from "../../generated-samples/message-service/descriptors.js";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createMcpServer } from "../../gateway/src/mcp.js";
import { problem } from "../../runtime/src/gateway/problems.js";
import {
  createGateway,
  failureLine,
  operationResultToJson,
  TransportError,
  type GatewayOptions,
  type ServiceDesc,
} from "../../runtime/src/index.js";
import { generateFiles } from "../../src/generate.js";
import { openApiDocument, type OpenApiDocument } from "../../src/emit/openapi/openapi.js";

type Obj = Record<string, any>;
const servers: Server[] = [];
let backend: RunningServer;
let doc: OpenApiDocument;

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A gateway to `endpoint` (the example service unless given). */
function gateway(
  options: Partial<GatewayOptions> & { endpoint?: string; timeoutMs?: number } = {},
) {
  const { endpoint = backend.url, timeoutMs, ...rest } = options;
  return listen(
    createGateway({
      service: ApiDesc as ServiceDesc,
      document: doc,
      client: (c) =>
        new ApiClient({
          endpoint,
          ...(timeoutMs === undefined ? {} : { timeoutMs }),
          ...(c.usernameToken ? { wsSecurity: c.usernameToken } : {}),
        }),
      ...rest,
    }),
  );
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

function validator() {
  const ajv = new Ajv2020({ strictSchema: false });
  return (schema: Obj, json: unknown) => {
    const check = ajv.compile({ ...schema, components: doc.components });
    return check(json) ? undefined : ajv.errorsText(check.errors);
  };
}

beforeAll(async () => {
  const dbPath = path.join(tempDir(), "m.db");
  backend = await startServer({ port: 0, host: "127.0.0.1", dbPath, seedPath: SEED_PATH });
  const { plan } = await generateFiles("fixtures/message-service/api.wsdl");
  doc = openApiDocument(plan!);
});
afterAll(async () => {
  for (const s of servers) s.close();
  await backend?.close();
});

describe("the gateway in front of the Message Retrieval Service", () => {
  it("serves its OpenAPI document", async () => {
    const url = await gateway();
    const res = await fetch(`${url}/openapi.json`);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it("answers every operation with the client's result, exactly, as the schema says", async () => {
    const url = await gateway();
    const direct = new ApiClient({ endpoint: backend.url });
    const check = validator();
    const range = { ...ALICE, startDate: "2024-01-01T00:00:00", endDate: "2024-12-31T23:59:59" };
    const calls: [string, Obj, () => Promise<unknown>][] = [
      ["GetMessages", ALICE, () => direct.getMessages(ALICE)],
      ["GetMessagesInDateRange", range, () => direct.getMessagesInDateRange(range)],
    ];
    for (const [name, input, expected] of calls) {
      const res = await post(`${url}/${name}`, input);
      expect(res.status, name).toBe(200);
      const json = await res.json();
      const op = ApiDesc.ports.ApiSoap.operations[name]!;
      expect(json).toEqual(JSON.parse(JSON.stringify(operationResultToJson(op, await expected()))));
      const schema = doc.paths[`/${name}`] as Obj;
      expect(check(schema.post.responses["200"].content["application/json"].schema, json)).toBe(
        undefined,
      );
      if (name === "GetMessages") expect(JSON.stringify(json)).toContain('"2024-01-05T10:00:00"');
    }
    const messages = (await direct.getMessages(ALICE))!;
    const id = messages[0]!.Id;
    const res = await post(`${url}/DeleteMessage`, { ...ALICE, MessageId: id });
    expect(res.status).toBe(200);
    expect(await res.json()).toBeNull();
    expect((await direct.getMessages(ALICE))!.map((m) => m!.Id)).not.toContain(id);
  });

  it("refuses JSON that does not fit, naming its JSON pointer", async () => {
    const url = await gateway();
    const res = await post(`${url}/DeleteMessage`, { ...ALICE, MessageId: "7" });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toMatchObject({ status: 400, pointer: "/MessageId" });
    const range = await post(`${url}/GetMessagesInDateRange`, { ...ALICE, startDate: "2024" });
    expect(await range.json()).toMatchObject({ status: 400, pointer: "/startDate" });
    const bad = await post(`${url}/GetMessages`, "{");
    expect(bad.status).toBe(400);
    expect((await post(`${url}/Nope`, {})).status).toBe(404);
  });

  it("answers a malformed request 401, 413 or 415, each a status its document lists", async () => {
    const url = await gateway({ usernameTokenFrom: "authorization", maxBodyBytes: 64 });
    const statuses = [
      await post(`${url}/GetMessages`, ALICE, { authorization: "Basic !" }),
      await post(`${url}/GetMessages`, { ...ALICE, email: "x".repeat(100) }),
      await fetch(`${url}/GetMessages`, { method: "POST", body: "email=a" }),
    ].map((r) => r.status);
    expect(statuses).toEqual([401, 413, 415]);
    const documented = Object.keys((doc.paths as Obj)["/GetMessages"].post.responses);
    for (const status of statuses) expect(documented).toContain(String(status));
  });

  it("answers a Client fault 400 with its code and string", async () => {
    const url = await gateway();
    const res = await post(`${url}/GetMessages`, { email: ALICE.email, password: "wrong" });
    expect(res.status).toBe(400);
    const p = (await res.json()) as Obj;
    expect(p.faultcode).toMatch(/Client$/);
    expect(typeof p.faultstring).toBe("string");
    expect(JSON.stringify(p)).not.toMatch(/\n\s+at /);
  });
});

describe("the gateway when the backend fails", () => {
  const FAULT =
    '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
    "<soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>database down</faultstring>" +
    "<detail><Why>disk</Why></detail></soap:Fault></soap:Body></soap:Envelope>";

  it("answers a Server fault 502 with the fault and its detail", async () => {
    const endpoint = await listen((_, res) => {
      res.writeHead(500, { "content-type": "text/xml; charset=utf-8" }).end(FAULT);
    });
    const url = await gateway({ endpoint });
    const res = await post(`${url}/GetMessages`, ALICE);
    expect(res.status).toBe(502);
    const p = (await res.json()) as Obj;
    expect(p).toMatchObject({
      status: 502,
      faultcode: "soap:Server",
      faultstring: "database down",
    });
    expect(JSON.stringify(p.faultDetail)).toContain("disk");
  });

  it("answers 504 when the backend does not answer in time, 502 when it cannot be reached", async () => {
    const silent = await listen(() => {});
    const url = await gateway({ endpoint: silent, timeoutMs: 100 });
    expect((await post(`${url}/GetMessages`, ALICE)).status).toBe(504);
    const closed = await listen(() => {});
    servers.pop()!.close();
    const gone = await gateway({ endpoint: closed });
    expect((await post(`${gone}/GetMessages`, ALICE)).status).toBe(502);
  });

  it("passes configured headers on, and Basic credentials as a WS-Security UsernameToken", async () => {
    const seen: { headers: Obj; body: string }[] = [];
    const endpoint = await listen(async (req, res) => {
      let body = "";
      for await (const c of req) body += c;
      seen.push({ headers: req.headers, body });
      res.writeHead(500, { "content-type": "text/xml" }).end(FAULT);
    });
    const url = await gateway({
      endpoint,
      forwardHeaders: ["x-tenant"],
      usernameTokenFrom: "authorization",
    });
    const basic = `Basic ${Buffer.from("svc:s3cret").toString("base64")}`;
    await post(`${url}/GetMessages`, ALICE, { "x-tenant": "t1", authorization: basic });
    expect(seen[0]!.headers["x-tenant"]).toBe("t1");
    expect(seen[0]!.headers["authorization"]).toBeUndefined();
    expect(seen[0]!.body).toMatch(/<wsse:Username>svc<\/wsse:Username>/);
  });

  it("logs the cause of a 5xx answer by name and message, and of an MCP tool's", async () => {
    const closed = await listen(() => {});
    servers.pop()!.close();
    const logged: string[] = [];
    const gone = await gateway({ endpoint: closed, log: (m) => logged.push(m) });
    expect((await post(`${gone}/GetMessages`, ALICE)).status).toBe(502);
    const cause =
      /^GetMessages: The service could not be reached \(TransportError: POST http\S+ failed/;
    expect(logged).toEqual([expect.stringMatching(cause)]);

    const mcpLogged: string[] = [];
    const server = createMcpServer({
      service: ApiDesc as ServiceDesc,
      document: doc,
      client: new ApiClient({ endpoint: closed }),
      log: (m) => mcpLogged.push(m),
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const mcp = new McpClient({ name: "test", version: "1.0.0" });
    await mcp.connect(clientSide);
    const result = await mcp.callTool({ name: "GetMessages", arguments: ALICE });
    await mcp.close();
    expect(result.isError).toBe(true);
    expect(mcpLogged).toEqual([expect.stringMatching(cause)]);
  });

  it("logs no URL's query, where an HTTP GET binding's input (a password) would be", () => {
    const e = new TransportError("GET http://h/api.asmx/Login?user=a&password=s3cret failed: x", 0);
    const line = failureLine("Login", problem(502, "The service could not be reached"), e);
    expect(line).toBe(
      "Login: The service could not be reached" +
        " (TransportError: GET http://h/api.asmx/Login?… failed: x)",
    );
  });

  it("never forwards the usernameTokenFrom header, even when forwardHeaders lists it", async () => {
    const seen: Obj[] = [];
    const endpoint = await listen((req, res) => {
      seen.push(req.headers);
      res.writeHead(500, { "content-type": "text/xml" }).end(FAULT);
    });
    const url = await gateway({
      endpoint,
      forwardHeaders: ["Authorization", "x-tenant"],
      usernameTokenFrom: "authorization",
    });
    const basic = `Basic ${Buffer.from("svc:s3cret").toString("base64")}`;
    await post(`${url}/GetMessages`, ALICE, { "x-tenant": "t1", authorization: basic });
    expect(seen[0]!["x-tenant"]).toBe("t1");
    expect(seen[0]!["authorization"]).toBeUndefined();
  });

  it("answers 500 and logs a failure no answer covered, without the query or the secret", async () => {
    const logged: string[] = [];
    const url = await listen(
      createGateway({
        service: ApiDesc as ServiceDesc,
        document: doc,
        client: () => {
          throw new TypeError("no client for this tenant");
        },
        log: (m) => logged.push(m),
      }),
    );
    const res = await post(`${url}/GetMessages?token=s3cret`, ALICE);
    expect(res.status).toBe(500);
    expect(((await res.json()) as Obj)["title"]).toBe("The gateway failed");
    expect(logged).toEqual([
      "POST /GetMessages: the gateway failed: TypeError: no client for this tenant",
    ]);
  });
});

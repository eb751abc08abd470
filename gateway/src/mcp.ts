/**
 * MCP tools over a SOAP service (the official @modelcontextprotocol/sdk): one tool per operation,
 * its description the operation's documentation and its input schema the one the OpenAPI document
 * gives the request body (its `components/schemas` references as `$defs`). A call goes through
 * the generated client as the JSON gateway's does (`invokeOperation`); the result comes back as
 * structured content and as JSON text, a fault as an `isError` result carrying the problem.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  failureLine,
  invokeOperation,
  type GatewayClient,
  type ServiceDesc,
} from "@wsdl-tsgen/runtime";

type Obj = Record<string, unknown>;

export interface McpOptions {
  readonly service: ServiceDesc;
  /** The OpenAPI document `wsdl-tsgen generate --openapi` (or the gateway scaffold) wrote. */
  readonly document: object;
  /** The generated client the tools call the backend with. */
  readonly client: GatewayClient;
  /** Only these WSDL operations become tools (agents do poorly with hundreds). Default: all. */
  readonly operations?: readonly string[];
  /** The most binary bytes an answer holds, Blobs read to base64 (16 MiB), as the gateway. */
  readonly maxBinaryBytes?: number;
  /** The server's name and version, as MCP clients see them. */
  readonly name?: string;
  readonly version?: string;
  /**
   * Called with each failure answered with a 5xx problem, naming its cause, for the operator's log
   * (never a secret). Over stdio, write it to stderr: stdout is the protocol's.
   */
  readonly log?: (message: string) => void;
}

/** One tool as `tools/list` gives it. */
export interface ToolInfo {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Obj;
}

const isObject = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** `schema` with its `#/components/schemas/` references made `#/$defs/`, recursively. */
function rebased(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebased);
  if (!isObject(schema)) return schema;
  const out: Obj = {};
  for (const [k, v] of Object.entries(schema))
    out[k] =
      k === "$ref" && typeof v === "string"
        ? v.replace("#/components/schemas/", "#/$defs/")
        : rebased(v);
  return out;
}

/** The tools of the document's operations (`operations`: only those). */
export function toolsOf(document: object, operations?: readonly string[]): ToolInfo[] {
  const paths = isObject(Reflect.get(document, "paths"))
    ? (Reflect.get(document, "paths") as Obj)
    : {};
  const components: unknown = Reflect.get(document, "components");
  const defs = rebased(isObject(components) ? components["schemas"] : {});
  const tools: ToolInfo[] = [];
  for (const item of Object.values(paths)) {
    const post = isObject(item) && isObject(item["post"]) ? item["post"] : undefined;
    const name = post?.["operationId"];
    if (post === undefined || typeof name !== "string") continue;
    if (operations !== undefined && !operations.includes(name)) continue;
    const body = Reflect.get(Object(post["requestBody"]), "content");
    const schema: unknown = Reflect.get(
      Object(Reflect.get(Object(body), "application/json")),
      "schema",
    );
    const input = rebased(schema ?? { type: "object" }) as Obj;
    tools.push({
      name,
      description:
        typeof post["description"] === "string" ? post["description"] : `The ${name} operation.`,
      inputSchema: { type: "object", ...input, $defs: defs },
    });
  }
  return tools;
}

/** An MCP server (not yet connected) whose tools call the backend through `options.client`. */
export function createMcpServer(options: McpOptions): Server {
  const tools = toolsOf(options.document, options.operations);
  const server = new Server(
    { name: options.name ?? options.service.name, version: options.version ?? "1.0.0" },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const name = request.params.name;
    if (!tools.some((t) => t.name === name))
      return { isError: true, content: [{ type: "text" as const, text: `no tool ${name}` }] };
    const answer = await invokeOperation(
      options.service,
      options.client,
      name,
      request.params.arguments ?? {},
      {},
      options.maxBinaryBytes === undefined ? {} : { maxBinaryBytes: options.maxBinaryBytes },
    );
    if ("problem" in answer) {
      const p = answer.problem;
      if (p.status >= 500) options.log?.(failureLine(name, p, answer.cause));
      return {
        isError: true,
        structuredContent: { ...answer.problem },
        content: [{ type: "text" as const, text: JSON.stringify(answer.problem) }],
      };
    }
    // structuredContent is an object: a result of another kind is its `result`.
    return {
      structuredContent: { result: answer.json },
      content: [{ type: "text" as const, text: JSON.stringify(answer.json) }],
    };
  });
  return server;
}

/** Serves the tools over stdio until the client closes it (`npm run mcp`). */
export async function serveMcpStdio(options: McpOptions): Promise<void> {
  await createMcpServer(options).connect(new StdioServerTransport());
}

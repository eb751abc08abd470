/** `@wsdl-tsgen/gateway`: MCP tools over a SOAP service, beside the runtime's JSON gateway. */
export { createMcpServer, serveMcpStdio, toolsOf } from "./mcp.js";
export type { McpOptions, ToolInfo } from "./mcp.js";

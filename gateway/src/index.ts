/**
 * `@wsdl-tsgen/gateway`: MCP tools over a SOAP service and Swagger UI for the runtime's JSON
 * gateway.
 */
export { createMcpServer, serveMcpStdio, toolsOf } from "./mcp.js";
export type { McpOptions, ToolInfo } from "./mcp.js";
export { DOCS_CSP, docsHandler, docsPage } from "./docs.js";
export type { DocsHandler, DocsOptions } from "./docs.js";

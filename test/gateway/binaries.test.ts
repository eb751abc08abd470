/**
 * Binaries through the JSON gateway: a binary the client spooled to a file (a Blob) is answered as
 * base64, as bytes in memory are and as the OpenAPI document says, read within the gateway's
 * maxBinaryBytes; over it the answer is a 502 problem and nothing is read. The spooled files are
 * gone once the gateway has answered, either way.
 */
import { createHash } from "node:crypto";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createMcpServer } from "../../gateway/src/mcp.js";
import { DocumentsClient } from "../../generated-samples/documents/index.js";
import { DocumentsDesc } from "../../generated-samples/documents/descriptors.js";
import { withBinariesRead } from "../../runtime/src/gateway/binaries.js";
import { createGateway, type ServiceDesc } from "../../runtime/src/index.js";
import { openApiDocument, type OpenApiDocument } from "../../src/emit/openapi/openapi.js";
import { generateFiles } from "../../src/generate.js";
import {
  startDocuments,
  type DocumentsServer,
  type StoredDocument,
} from "../mtom/documents-server.js";
import { binary } from "../support/binary.js";
import { listen, type Loopback } from "../support/loopback.js";
import { spoolDir } from "../support/spool-dir.js";

const MiB = 1024 * 1024;
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const doc = (id: string, content: Uint8Array): [string, StoredDocument] => [
  id,
  { id, name: id, mediaType: "application/octet-stream", content },
];
const big = binary(3 * MiB + 1, 1);
const other = binary(2 * MiB, 2);
const small = binary(2000, 3);

const tmp = spoolDir(false);
let backend: DocumentsServer;
let document: OpenApiDocument;
const gateways: Loopback[] = [];
const logged: string[] = [];

beforeAll(async () => {
  const store = new Map([doc("d1", big), doc("d2", other), doc("d3", small)]);
  backend = await startDocuments({ logger: () => {} }, store);
  const { plan } = await generateFiles("fixtures/documents/documents.wsdl");
  document = openApiDocument(plan!);
});
afterAll(async () => {
  for (const g of gateways) await g.close();
  await backend.close();
});

/** A gateway whose client spools binaries of 1 MiB or more (the default). */
async function gateway(maxBinaryBytes?: number): Promise<string> {
  const g = await listen(
    createGateway({
      service: DocumentsDesc as ServiceDesc,
      document,
      client: () => new DocumentsClient({ endpoint: backend.url, mtom: true }),
      log: (m) => logged.push(m),
      ...(maxBinaryBytes === undefined ? {} : { maxBinaryBytes }),
    }),
  );
  gateways.push(g);
  return g.url;
}

const post = (url: string, body: unknown) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** Checks `json` against the 200 response schema of `operation` in the OpenAPI document. */
function fitsSchema(operation: string, json: unknown): string | undefined {
  const op = (document.paths as Record<string, any>)[`/${operation}`].post;
  const schema = op.responses["200"].content["application/json"].schema;
  const check = new Ajv2020({ strictSchema: false }).compile({
    ...schema,
    components: document.components,
  });
  return check(json) ? undefined : JSON.stringify(check.errors);
}

describe("the gateway's answer of binaries", () => {
  it("gives a spooled binary as base64, as the OpenAPI document says, its file gone", async () => {
    const url = await gateway();
    const res = await post(`${url}/Download`, { Id: "d1" });
    expect(res.status).toBe(200);
    const json = (await res.json()) as { Content: string };
    expect(sha256(Buffer.from(json.Content, "base64"))).toBe(sha256(big));
    expect(fitsSchema("Download", json)).toBeUndefined();
    expect(tmp.entries()).toEqual([]);
  });

  it("reads the Blobs of a repeated element (List), and small binaries stay bytes", async () => {
    const url = await gateway();
    const res = await post(`${url}/List`, { WithContent: true });
    expect(res.status).toBe(200);
    const json = (await res.json()) as { Content: string }[];
    expect(json.map((d) => sha256(Buffer.from(d.Content, "base64")))).toEqual(
      [big, other, small].map(sha256),
    );
    expect(fitsSchema("List", json)).toBeUndefined();
    expect(tmp.entries()).toEqual([]);
  });

  it.each([
    ["a spooled binary", "d1", 3 * MiB, 3 * MiB + 1],
    ["bytes in memory", "d3", 1999, 2000],
  ])("answers 502 for %s over maxBinaryBytes, logged, its file gone", async (_, id, max, bytes) => {
    const url = await gateway(max);
    const res = await post(`${url}/Download`, { Id: id });
    expect(res.status).toBe(502);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toMatchObject({
      title: "The service's answer is too large to give as JSON",
      detail: `the answer holds ${bytes} bytes of binaries; the gateway answers at most ${max}`,
    });
    expect(logged.at(-1)).toMatch(/^Download: The service's answer is too large/);
    expect(tmp.entries()).toEqual([]);
  });

  it("bounds an MCP tool's answer by its own maxBinaryBytes, as the gateway's", async () => {
    const server = createMcpServer({
      service: DocumentsDesc as ServiceDesc,
      document,
      client: new DocumentsClient({ endpoint: backend.url, mtom: true }),
      maxBinaryBytes: 1999,
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const mcp = new McpClient({ name: "test", version: "1.0.0" });
    await mcp.connect(clientSide);
    try {
      const result = await mcp.callTool({ name: "Download", arguments: { Id: "d3" } });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ status: 502 });
    } finally {
      await mcp.close();
    }
  });
});

describe("withBinariesRead", () => {
  it("replaces Blobs in plain containers only where they are, and leaves the rest as it is", async () => {
    const date = new Date(0);
    const untouched = { a: [1, 2], when: date };
    const value = {
      untouched,
      parts: [new Blob(["xy"]), new Uint8Array([1])],
      deep: { b: new Blob(["z"]) },
    };
    const read = (await withBinariesRead(value, 100, (v) => v)) as typeof value;
    expect(read.untouched).toBe(untouched);
    expect(read.parts[0]).toEqual(new Uint8Array([0x78, 0x79]));
    expect(read.parts[1]).toBe(value.parts[1]);
    expect(read.deep.b).toEqual(new Uint8Array([0x7a]));
    expect(value.deep.b).toBeInstanceOf(Blob);
    await expect(withBinariesRead(value, 3, (v) => v)).rejects.toThrow(/holds 4 bytes/);
  });
});

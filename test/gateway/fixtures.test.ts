/**
 * The gateway in front of the generated servers of the fixture WSDLs (choices, rpc/encoded,
 * multi-part bodies, attachments, substitution groups and derived types), each answering samples:
 * every operation's JSON answer is the sample's JSON exactly and fits the OpenAPI document (Ajv),
 * and a declared fault comes back 422 with its detail decoded.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import {
  createGateway,
  operationInputToJson,
  operationResultToJson,
  XsdDateTime,
  type ServiceDesc,
} from "../../runtime/src/index.js";
import { sampleInput, sampleOutput } from "../../runtime/src/descriptors/sample-values.js";
import { generateFiles } from "../../src/generate.js";
import { openApiDocument } from "../../src/emit/openapi/openapi.js";
import * as choices from "../../generated-samples/choices/index.js";
import * as encoded from "../../generated-samples/encoded-arrays/index.js";
import * as multipart from "../../generated-samples/multipart/index.js";
import * as swa from "../../generated-samples/swa/index.js";
import * as features from "../../generated-samples/xsd-features/index.js";
import { MailboxDesc } from "../../generated-samples/choices/descriptors.js";
import { EchoServiceDesc } from "../../generated-samples/encoded-arrays/descriptors.js";
import { ShippingDesc } from "../../generated-samples/multipart/descriptors.js";
import { ScansDesc } from "../../generated-samples/swa/descriptors.js";
import { FeaturesDesc } from "../../generated-samples/xsd-features/descriptors.js";

type Obj = Record<string, any>;
type Handler = (impl: never) => Parameters<typeof createServer>[1];
type ClientClass = new (options: { endpoint: string }) => object;
const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function withParts(value: unknown, parts: readonly { part: string }[] | undefined): unknown {
  if (parts === undefined) return value;
  const bytes = Object.fromEntries(parts.map((p) => [p.part, new Uint8Array([1, 2, 255])]));
  return { ...(value as object), ...bytes };
}

/** Each method answers its sample (with bytes for each attachment part). */
function sampleImplementation(service: ServiceDesc, overrides: Obj = {}): Obj {
  const port = service.ports[service.defaultPort]!;
  const impl: Obj = {};
  for (const [method, name] of Object.entries(service.methods)) {
    const op = port.operations[name]!;
    const parts = op.kind === "soap" ? op.responseAttachments : undefined;
    impl[method] = async () => withParts(sampleOutput(service as never, method as never), parts);
  }
  return { ...impl, ...overrides };
}

/**
 * A gateway in front of the generated server of `service`, and the OpenAPI document of its WSDL.
 */
async function setUp(
  wsdl: string,
  service: ServiceDesc,
  handler: Handler,
  client: ClientClass,
  impl: Obj,
) {
  const backend = await listen(handler(impl as never));
  const port = service.ports[service.defaultPort]!;
  const endpoint = `${backend}${new URL(port.address).pathname}`;
  const { plan } = await generateFiles(wsdl);
  const document = openApiDocument(plan!);
  const url = await listen(
    createGateway({ service, document, client: () => new client({ endpoint }) }),
  );
  return { url, document, port };
}

const FIXTURES: [string, string, ServiceDesc, Handler, ClientClass][] = [
  [
    "choices",
    "fixtures/choices/choices.wsdl",
    MailboxDesc as ServiceDesc,
    choices.createMailboxHandler as Handler,
    choices.MailboxClient as ClientClass,
  ],
  [
    "rpc/encoded",
    "fixtures/encoded-arrays/encoded-arrays.wsdl",
    EchoServiceDesc as ServiceDesc,
    encoded.createEchoServiceHandler as Handler,
    encoded.EchoServiceClient as ClientClass,
  ],
  [
    "multi-part bodies",
    "fixtures/multipart/multipart.wsdl",
    ShippingDesc as ServiceDesc,
    multipart.createShippingHandler as Handler,
    multipart.ShippingClient as ClientClass,
  ],
  [
    "attachments",
    "fixtures/swa/scans.wsdl",
    ScansDesc as ServiceDesc,
    swa.createScansHandler as Handler,
    swa.ScansClient as ClientClass,
  ],
  [
    "substitution groups",
    "fixtures/xsd-features/features.wsdl",
    FeaturesDesc as ServiceDesc,
    features.createFeaturesHandler as Handler,
    features.FeaturesClient as ClientClass,
  ],
];

describe.each(FIXTURES)("the gateway in front of %s", (_, wsdl, service, handler, client) => {
  it("round-trips every operation's sample exactly, as the document describes it", async () => {
    const { url, document, port } = await setUp(
      wsdl,
      service,
      handler,
      client,
      sampleImplementation(service),
    );
    const ajv = new Ajv2020({ strictSchema: false });
    for (const [method, name] of Object.entries(service.methods)) {
      const op = port.operations[name]!;
      const soap = op.kind === "soap" ? op : undefined;
      const input = withParts(sampleInput(service as never, method as never), soap?.attachments);
      const res = await fetch(`${url}/${name}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(operationInputToJson(op, input)),
      });
      const json = await res.json();
      expect(res.status, `${name}: ${JSON.stringify(json)}`).toBe(200);
      const output = withParts(
        sampleOutput(service as never, method as never),
        soap?.responseAttachments,
      );
      expect(json, name).toEqual(
        JSON.parse(JSON.stringify(operationResultToJson(op, output) ?? null)),
      );
      const schema = (document.paths[`/${name}`] as Obj).post.responses["200"].content[
        "application/json"
      ].schema;
      const check = ajv.compile({ ...schema, components: document.components });
      expect(check(json) ? undefined : ajv.errorsText(check.errors), name).toBeUndefined();
    }
  });
});

describe("a declared fault", () => {
  it("comes back 422 with the fault's name and its detail as JSON", async () => {
    const fail = async () => {
      const detail = { Field: "Qty", At: new XsdDateTime("2024-01-05T10:00:00.1234567") };
      throw new features.InvalidOrderFault({ code: "Client", message: "bad quantity" }, detail);
    };
    const impl = sampleImplementation(FeaturesDesc as ServiceDesc, { order: fail });
    const { url } = await setUp(
      "fixtures/xsd-features/features.wsdl",
      FeaturesDesc as ServiceDesc,
      features.createFeaturesHandler as Handler,
      features.FeaturesClient as ClientClass,
      impl,
    );
    const input = operationInputToJson(
      FeaturesDesc.ports.FeaturesSoap.operations["Order"]!,
      sampleInput(FeaturesDesc, "order"),
    );
    const res = await fetch(`${url}/Order`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(input),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      status: 422,
      fault: "InvalidOrder",
      faultstring: "bad quantity",
      faultDetail: { Field: "Qty", At: "2024-01-05T10:00:00.1234567" },
    });
  });
});

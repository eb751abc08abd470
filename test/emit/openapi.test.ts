/**
 * The OpenAPI 3.1 emitter (src/emit/openapi): each fixture's document passes an independent
 * OpenAPI validator, and the JSON the runtime's mapping makes of sample values (runtime/src/json)
 * validates with Ajv (draft 2020-12) against the operation's schemas.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { tempDir } from "../support/tmp.js";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { generateFiles } from "../../src/generate.js";
import { openApiDocument } from "../../src/emit/openapi/openapi.js";
import { scalarSchema } from "../../src/emit/openapi/scalar-schemas.js";
import { scalarFromJson } from "../../runtime/src/json/json-scalars.js";
import {
  operationInputToJson,
  operationResultToJson,
  type ServiceDesc,
} from "../../runtime/src/index.js";
import { sampleInput, sampleOutput } from "../../runtime/src/descriptors/sample-values.js";
import { ApiDesc } from "../../generated-samples/message-service/descriptors.js";
import { MailboxDesc } from "../../generated-samples/choices/descriptors.js";
import { DocumentsDesc } from "../../generated-samples/documents/descriptors.js";
import { EchoServiceDesc } from "../../generated-samples/encoded-arrays/descriptors.js";
import { ShippingDesc } from "../../generated-samples/multipart/descriptors.js";
import { ScansDesc } from "../../generated-samples/swa/descriptors.js";
import { FeaturesDesc } from "../../generated-samples/xsd-features/descriptors.js";

type Obj = Record<string, any>;

async function documentOf(wsdl: string): Promise<Obj> {
  const { plan } = await generateFiles(wsdl);
  return openApiDocument(plan!);
}

/** Checks `json` against a schema of the document (its components in reach of its `$ref`s). */
function validator(doc: Obj) {
  const ajv = new Ajv2020({ strictSchema: false, allErrors: true });
  return (schema: Obj, json: unknown): string | undefined => {
    const check = ajv.compile({ ...schema, components: doc["components"] });
    return check(json) ? undefined : ajv.errorsText(check.errors);
  };
}

function withParts(value: unknown, parts: readonly { part: string }[] | undefined): unknown {
  if (parts === undefined) return value;
  const bytes = Object.fromEntries(parts.map((p) => [p.part, new Uint8Array([1, 2, 255])]));
  return { ...(value as object), ...bytes };
}

const FIXTURES: [string, string, ServiceDesc][] = [
  ["the Message Retrieval Service", "fixtures/message-service/api.wsdl", ApiDesc as ServiceDesc],
  ["choices and ordered lists", "fixtures/choices/choices.wsdl", MailboxDesc as ServiceDesc],
  ["documents", "fixtures/documents/documents.wsdl", DocumentsDesc as ServiceDesc],
  ["rpc/encoded", "fixtures/encoded-arrays/encoded-arrays.wsdl", EchoServiceDesc as ServiceDesc],
  ["multi-part bodies", "fixtures/multipart/multipart.wsdl", ShippingDesc as ServiceDesc],
  ["attachments", "fixtures/swa/scans.wsdl", ScansDesc as ServiceDesc],
  ["substitution groups", "fixtures/xsd-features/features.wsdl", FeaturesDesc as ServiceDesc],
];

describe.each(FIXTURES)("the OpenAPI document of %s", (_, wsdl, service) => {
  it("passes an independent OpenAPI 3.1 validator and is the same on every run", async () => {
    const doc = await documentOf(wsdl);
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(JSON.stringify(await documentOf(wsdl))).toBe(JSON.stringify(doc));
  });

  it("describes the JSON of every operation's sample input and result (Ajv, 2020-12)", async () => {
    const doc = await documentOf(wsdl);
    const check = validator(doc);
    const port = service.ports[service.defaultPort as string]!;
    for (const [method, name] of Object.entries(service.methods)) {
      const op = port.operations[name]!;
      const post = doc["paths"][`/${name}`].post;
      expect(post.operationId).toBe(name);
      const soap = op.kind === "soap" ? op : undefined;
      const input = withParts(sampleInput(service as never, method as never), soap?.attachments);
      const inJson = JSON.parse(JSON.stringify(operationInputToJson(op, input)));
      const inSchema = post.requestBody.content["application/json"].schema;
      expect(check(inSchema, inJson), `${name} input ${JSON.stringify(inJson)}`).toBeUndefined();
      if (soap?.oneWay) continue;
      const output = withParts(
        sampleOutput(service as never, method as never),
        soap?.responseAttachments,
      );
      const outJson = JSON.parse(JSON.stringify(operationResultToJson(op, output) ?? null));
      const outSchema = post.responses["200"].content["application/json"].schema;
      expect(
        check(outSchema, outJson),
        `${name} result ${JSON.stringify(outJson)}`,
      ).toBeUndefined();
    }
  });
});

describe("the schemas", () => {
  it("write exact numbers and dates as strings with patterns, never format: date-time", async () => {
    const doc = await documentOf("fixtures/message-service/api.wsdl");
    const text = JSON.stringify(doc);
    expect(text).not.toContain("date-time");
    const check = validator(doc);
    const messages = { $ref: "#/components/schemas/Messages" };
    const row = JSON.parse(
      JSON.stringify(
        operationResultToJson(
          ApiDesc.ports.ApiSoap.operations["GetMessages"]!,
          sampleOutput(ApiDesc, "getMessages"),
        ),
      ),
    )[0];
    expect(check(messages, row)).toBeUndefined();
    const dated = Object.entries(row).find(([, v]) => typeof v === "string" && /T\d\d:/.test(v));
    if (dated) {
      expect(check(messages, { ...row, [dated[0]]: "2024-01-05 10:00" })).toMatch(/pattern/);
      expect(
        check(messages, { ...row, [dated[0]]: "2024-01-05T10:00:00.1234567" }),
      ).toBeUndefined();
    }
    expect(check(messages, { ...row, Unknown: 1 })).toMatch(/additional/);
  });

  it("require what the TypeScript input form requires: fixed values left out, bad fixed kept", async () => {
    const wsdl = "fixtures/openapi/input-rules.wsdl";
    const { plan, files } = await generateFiles(wsdl);
    const put = (openApiDocument(plan!) as Obj)["components"].schemas.Put;
    // Count's fixed value is no int, so the writer cannot supply it: both forms require it.
    expect(put.required).toEqual(["mode", "Tags", "Name", "Count"]);
    const types = files.find((f) => f.path.endsWith("types.ts"))!.content;
    const input = types.slice(types.indexOf("interface PutInput"));
    for (const left of ["version", "Kind", "Notes"]) expect(input).toMatch(`  ${left}?:`);
    const output = types.slice(types.indexOf("interface Put {"));
    for (const held of ["mode", "Tags", "Name", "Count"]) expect(output).toMatch(`  ${held}: `);
  });

  it("patterns accept what the runtime's JSON mapping reads, and refuse what it refuses", () => {
    const decimal = new RegExp(scalarSchema("decimal")["pattern"] as string);
    const base64 = new RegExp(scalarSchema("base64Binary")["pattern"] as string);
    const desc = (s: "decimal" | "base64Binary") => ({ k: "scalar", s, list: false }) as const;
    const reads = (s: "decimal" | "base64Binary", v: string) => {
      try {
        scalarFromJson(desc(s), v, "");
        return true;
      } catch {
        return false;
      }
    };
    for (const v of ["1", "-0.5", "+.5", "5.", "1e3", "١٢", " 1", "", "."])
      expect(decimal.test(v), v).toBe(reads("decimal", v));
    for (const v of ["AAEC/w==", "QUJD", "QUJ", "QU JD", "QQ=", ""])
      expect(base64.test(v), v).toBe(reads("base64Binary", v));
  });

  it("answers faults as problem+json with the declared details", async () => {
    const doc = await documentOf("fixtures/message-service/api.wsdl");
    const responses = Object.values(doc["paths"]).map((p: any) => p.post.responses);
    for (const r of responses)
      for (const status of ["400", "422", "502", "504"])
        expect(r[status].content).toHaveProperty(["application/problem+json"]);
    expect(doc["components"].schemas.Problem.required).toEqual(["title", "status"]);
  });
});

describe("generate --openapi FILE", () => {
  it("writes the document alone, with no --out and no TypeScript", async () => {
    const dir = tempDir();
    const file = `${dir}/api.json`;
    let stdout = "";
    const io = { stdout: (t: string) => void (stdout += t), stderr: () => {}, color: false };
    const code = await main(
      ["generate", "fixtures/message-service/api.wsdl", "--openapi", file],
      io,
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/wrote .*api\.json \(3 operations\)/);
    const doc = JSON.parse(readFileSync(file, "utf8"));
    expect(doc).toEqual(await documentOf("fixtures/message-service/api.wsdl"));
    expect(existsSync(`${dir}/types.ts`)).toBe(false);
  });

  it("carries the WSDL's documentation, simple types' included, only when asked", async () => {
    const { plan } = await generateFiles("fixtures/xsd-features/features.wsdl");
    const withDocs = JSON.stringify(openApiDocument(plan!));
    expect(withDocs).toContain('"description":"A primary colour."');
    expect(JSON.stringify(openApiDocument(plan!, { docs: false }))).not.toContain(
      "A primary colour",
    );
  });

  it("refuses --check, which would write nothing, rather than writing", async () => {
    const file = `${tempDir()}/api.json`;
    let stderr = "";
    const io = { stdout: () => {}, stderr: (t: string) => void (stderr += t), color: false };
    const args = ["generate", "fixtures/message-service/api.wsdl", "--openapi", file, "--check"];
    expect(await main(args, io)).toBe(2);
    expect(stderr).toContain("--openapi writes its document; it does not go with --check");
    expect(existsSync(file)).toBe(false);
  });

  it("exits 1 without writing for a WSDL that cannot be read", async () => {
    const dir = tempDir();
    const io = { stdout: () => {}, stderr: () => {}, color: false };
    const code = await main(["generate", `${dir}/none.wsdl`, "--openapi", `${dir}/x.json`], io);
    expect(code).toBe(1);
    expect(existsSync(`${dir}/x.json`)).toBe(false);
  });
});

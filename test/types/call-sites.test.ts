/**
 * What a user's compiler still says about their code now that it reads the written-out client and
 * implementation types (not types mapped from descriptors): each mistake is an error at the user's
 * own line. Each snippet is compiled beside a generated sample, and each is seen to compile once
 * the precision it relies on is removed, so that no assertion here holds by accident.
 */
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { compileFolders } from "../support/compile.js";

type Files = { path: string; content: string }[];

const sample = (name: string): Files =>
  readdirSync(path.join("generated-samples", name))
    .filter((f) => f.endsWith(".ts"))
    .map((f) => ({
      path: f,
      content: readFileSync(path.join("generated-samples", name, f), "utf8"),
    }));

const HEAD = `import { ApiClient, createApiHandler } from "./index.js";\nconst client = new ApiClient();\n`;
const FEATURES = `import { FeaturesClient, InvalidOrderFault, SoapFault } from "./index.js";\n`;

/** A user's mistake: its sample, its code, the line (of `code`) the error must be on. */
const MISTAKES = {
  "a wrong input type": {
    sample: "message-service",
    code: `${HEAD}void client.deleteMessage({ MessageId: "7" });\n`,
  },
  "a missing required field": {
    sample: "message-service",
    code: `${HEAD}void client.deleteMessage({ email: "a@b.c" });\n`,
  },
  "an unknown operation": {
    sample: "message-service",
    code: `${HEAD}void client.deleteMessages({ MessageId: 7 });\n`,
  },
  "an optional field set to undefined (exactOptionalPropertyTypes)": {
    sample: "message-service",
    code: `${HEAD}void client.deleteMessage({ email: undefined, MessageId: 7 });\n`,
  },
  "a wrong result from an implementation": {
    sample: "message-service",
    code: `${HEAD}createApiHandler({\n  deleteMessage: () => 42,\n});\n`,
    line: 4,
  },
  "a streamed item used as if it could not be null": {
    sample: "message-service",
    code: `${HEAD}export async function f() { for await (const m of client.stream.getMessages({ email: "a", password: "b" })) void m.Id; }\n`,
  },
  "a stream of an operation whose result is not one repeated element": {
    sample: "message-service",
    code: `${HEAD}void client.stream.deleteMessage({ MessageId: 7 });\n`,
  },
  "a wrong use of a fault's typed detail": {
    sample: "xsd-features",
    code: `${FEATURES}export function f(e: unknown): number {\n  if (e instanceof InvalidOrderFault) return e.faultDetail.Field;\n  return new FeaturesClient() instanceof SoapFault ? 1 : 0;\n}\n`,
    line: 3,
  },
} as const satisfies Record<string, { sample: string; code: string; line?: number }>;

/** How each mistake's precision is removed: the generated text loosened, where it stands. */
const LOOSENED: Record<keyof typeof MISTAKES, (f: { path: string; content: string }) => string> = {
  "a wrong input type": (f) =>
    f.path === "types.ts" ? f.content.replace("MessageId: number;", "MessageId: any;") : f.content,
  "a missing required field": (f) =>
    f.path === "types.ts"
      ? f.content.replace("MessageId: number;", "MessageId?: number;")
      : f.content,
  "an unknown operation": (f) =>
    f.path === "client.ts"
      ? f.content.replace(
          "export interface ApiClient {",
          "export interface ApiClient {\n  readonly [method: string]: any;",
        )
      : f.content,
  "an optional field set to undefined (exactOptionalPropertyTypes)": (f) =>
    f.path === "types.ts"
      ? f.content.replace(
          "interface DeleteMessage {\n  email?: string;",
          "interface DeleteMessage {\n  email?: string | undefined;",
        )
      : f.content,
  "a wrong result from an implementation": (f) =>
    f.path === "server.ts"
      ? f.content.replace(
          "context: ApiContext) => void | Promise<void>",
          "context: ApiContext) => unknown",
        )
      : f.content,
  "a streamed item used as if it could not be null": (f) =>
    f.path === "client.ts"
      ? f.content.replace("AsyncIterable<Messages | null>", "AsyncIterable<any>")
      : f.content,
  "a stream of an operation whose result is not one repeated element": (f) =>
    f.path === "client.ts"
      ? f.content.replace(
          "readonly stream: {",
          "readonly stream: {\n    readonly [method: string]: any;",
        )
      : f.content,
  "a wrong use of a fault's typed detail": (f) =>
    f.path === "faults.ts"
      ? f.content.replace("readonly faultDetail: InvalidOrder;", "readonly faultDetail: any;")
      : f.content,
};

describe("a user's mistake is an error at their own line", () => {
  it("for each mistake, with the generated types; none once its precision is removed", () => {
    const folders = new Map<string, Files>();
    for (const [name, m] of Object.entries(MISTAKES)) {
      const files = sample(m.sample);
      const loosened = files.map((f) => ({
        ...f,
        content: LOOSENED[name as keyof typeof MISTAKES](f),
      }));
      // The loosening must change the generated text, or the control would prove nothing.
      expect(loosened, name).not.toEqual(files);
      const id = name.replace(/\W+/g, "-");
      folders.set(id, [...files, { path: "user.ts", content: m.code }]);
      folders.set(`${id}-loose`, [...loosened, { path: "user.ts", content: m.code }]);
    }
    const errors = compileFolders(folders);
    for (const [name, m] of Object.entries(MISTAKES)) {
      const id = name.replace(/\W+/g, "-");
      const line = "line" in m ? m.line : 3;
      expect(
        errors.filter((e) => e.file.startsWith(`${id}/`)).map((e) => `${e.file}:${e.line}`),
        name,
      ).toEqual([`${id}/user.ts:${line}`]);
      expect(
        errors.filter((e) => e.file.startsWith(`${id}-loose/`)),
        `${name}, loosened`,
      ).toEqual([]);
    }
  });
});

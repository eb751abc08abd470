/**
 * The consumer matrix (issue 17, item 5): the generated SDK, as its own TypeScript in a user's
 * project, compiles with that project's tsc and runs with Node under every module setup users have:
 * ES modules with `moduleResolution` node16, nodenext and bundler, and CommonJS with node10
 * (NestJS's default tsconfig, as `nest new` writes it and strict), node16 and nodenext. The runtime
 * comes from its packed tarball, installed once in a folder the consumers share; each consumer is a
 * subfolder whose package.json says whether its files are ES modules or CommonJS. The SDK is the
 * checked-in sample, which pack.test.ts shows the packed generator writes byte for byte. The ES
 * module consumers compile the README's examples with it.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/tmp.js";
import { INSTALL, ROOT, npm, pack, typescriptVersion } from "./packed.js";

interface Consumer {
  readonly name: string;
  readonly type: "module" | "commonjs";
  readonly compilerOptions: Record<string, unknown>;
  /** The runtime's declarations tsc should pick under this setting. */
  readonly declarations: string;
}

const STRICT = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  // The runtime's own declarations are checked too, under each setting.
  skipLibCheck: false,
  target: "ES2022",
  types: ["node"],
};

// NestJS's generated tsconfig.json (CommonJS, node10 resolution by default, loose null checks).
const NEST = {
  module: "commonjs",
  declaration: true,
  removeComments: true,
  emitDecoratorMetadata: true,
  experimentalDecorators: true,
  allowSyntheticDefaultImports: true,
  target: "ES2023",
  sourceMap: true,
  baseUrl: "./",
  incremental: true,
  skipLibCheck: true,
  strictNullChecks: false,
  noImplicitAny: false,
  strictBindCallApply: false,
  noFallthroughCasesInSwitch: false,
};

const SDK = path.join(ROOT, "generated-samples/message-service");
const ESM_TYPES = "dist/index.d.ts";
const CJS_TYPES = "dist/cjs/index.d.ts";

/** A consumer with strict checks, its files ES modules or CommonJS as its package.json says. */
const strict = (
  type: Consumer["type"],
  module: string,
  moduleResolution: string,
  declarations: string,
): Consumer => ({
  name: `${type === "module" ? "esm" : "cjs"}-${moduleResolution}`,
  type,
  compilerOptions: { ...STRICT, module, moduleResolution },
  declarations,
});

const CONSUMERS: Consumer[] = [
  strict("module", "node16", "node16", ESM_TYPES),
  strict("module", "nodenext", "nodenext", ESM_TYPES),
  strict("module", "esnext", "bundler", ESM_TYPES),
  { name: "cjs-node10-nestjs", type: "commonjs", compilerOptions: NEST, declarations: ESM_TYPES },
  strict("commonjs", "commonjs", "node10", ESM_TYPES),
  strict("commonjs", "node16", "node16", CJS_TYPES),
  strict("commonjs", "nodenext", "nodenext", CJS_TYPES),
];

// No top-level await, so that the same file compiles to CommonJS. The fault proves that the
// server and the client share one runtime: `instanceof SoapFault` holds where it is caught (the
// HTTP bindings carry no faults: there it is an HTTP 500).
const MAIN = `import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ApiClient, SoapFault, createApiHandler, type ApiService } from "./generated/index.js";

const service: ApiService = {
  getMessages: (input) =>
    input.password === "pw"
      ? [{ DateArrived: "2024-01-05T10:00:00", UserId: 1, Sender: "bob", Id: 7 }]
      : [],
  getMessagesInDateRange: () => [],
  deleteMessage: () => {
    throw new SoapFault({ code: "Client", message: "no such message" });
  },
};

async function main(): Promise<void> {
  const server = createServer(createApiHandler(service)).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const endpoint = \`http://127.0.0.1:\${(server.address() as AddressInfo).port}/api.asmx\`;
  for (const port of ["ApiSoap", "ApiSoap12", "ApiHttpGet", "ApiHttpPost"] as const) {
    const client = new ApiClient({ endpoint, port });
    const got = await client.getMessages({ email: "a", password: "pw" });
    const fault = await client.deleteMessage({ email: "a", password: "pw", MessageId: 1 }).then(
      () => "none",
      (e: unknown) => (e instanceof SoapFault ? \`fault: \${e.message}\` : (e as Error).name),
    );
    console.log(\`\${port} \${got?.length} \${got?.[0]?.Sender} \${String(got?.[0]?.DateArrived)} \${fault}\`);
  }
  server.close();
}
void main();
`;

/** The README's TypeScript examples, importing the SDK from where these projects have it. */
const README_CODE = [
  ...readFileSync(path.join(ROOT, "README.md"), "utf8").matchAll(/^```ts\n([^]*?)^```$/gm),
].map((m) => m[1]!.replaceAll("./generated/api/index.js", "./generated/index.js"));

describe("the generated SDK in every module setup, from the packed runtime", () => {
  const dir = tempDir("wsdl-tsgen-consumers-");
  const shared = path.join(dir, "consumers");
  const runtimeDir = path.join(shared, "node_modules/@wsdl-tsgen/runtime");
  const tsc = path.join(shared, "node_modules/.bin/tsc");

  let files: string[] = [];
  beforeAll(() => {
    const runtime = pack(dir, "runtime");
    files = runtime.files;
    mkdirSync(shared);
    writeFileSync(
      path.join(shared, "package.json"),
      JSON.stringify({ name: "consumers", private: true }),
    );
    npm(
      [...INSTALL, runtime.tarball, `typescript@${typescriptVersion()}`, "@types/node@20"],
      shared,
    );
  }, 180_000);

  it("the runtime tarball carries CommonJS copies of its declarations", () => {
    expect(files).toContain(CJS_TYPES);
    expect(files).toContain("dist/cjs/package.json");
    // What marks the copied declarations as CommonJS for tsc.
    expect(
      JSON.parse(readFileSync(path.join(runtimeDir, "dist/cjs/package.json"), "utf8")),
    ).toEqual({ type: "commonjs" });
  });

  for (const c of CONSUMERS)
    it(`${c.name}: compiles with tsc and runs every binding`, { timeout: 120_000 }, () => {
      const project = path.join(shared, c.name);
      mkdirSync(path.join(project, "src"), { recursive: true });
      writeFileSync(
        path.join(project, "package.json"),
        JSON.stringify({ name: c.name, private: true, type: c.type }),
      );
      writeFileSync(
        path.join(project, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: { ...c.compilerOptions, rootDir: "src", outDir: "dist" },
          include: ["src"],
        }),
      );
      cpSync(SDK, path.join(project, "src/generated"), { recursive: true });
      writeFileSync(path.join(project, "src/main.ts"), MAIN);
      // The README's examples compile too (they use top-level await: ES modules only).
      expect(README_CODE.join()).toMatch(/new ApiClient[^]*createApiHandler\(/);
      if (c.type === "module")
        README_CODE.forEach((code, i) =>
          writeFileSync(path.join(project, `src/readme-${i}.ts`), code),
        );

      const compiled = spawnSync(tsc, ["-p", ".", "--listFiles"], {
        cwd: project,
        encoding: "utf8",
      });
      const listed = compiled.stdout.split("\n").filter(Boolean);
      expect(
        listed.filter((f) => f.includes("error TS")),
        compiled.stdout,
      ).toEqual([]);
      expect(compiled.status, compiled.stdout).toBe(0);
      // The runtime's declarations tsc chose: ES ones, or their CommonJS copies where a CommonJS
      // file may not import ES declarations.
      const runtimeIndex = listed.filter(
        (f) => f.startsWith(runtimeDir) && f.endsWith("index.d.ts"),
      );
      expect(runtimeIndex).toEqual([path.join(runtimeDir, c.declarations)]);

      // The output is in the module format the project asked for.
      const client = readFileSync(path.join(project, "dist/generated/client.js"), "utf8");
      expect(client).toContain(
        c.type === "module" ? 'from "@wsdl-tsgen/runtime"' : 'require("@wsdl-tsgen/runtime")',
      );

      const run = spawnSync(process.execPath, ["dist/main.js"], { cwd: project, encoding: "utf8" });
      expect(run.stderr).toBe("");
      expect(run.stdout.trim().split("\n")).toEqual(
        ["ApiSoap", "ApiSoap12", "ApiHttpGet", "ApiHttpPost"].map(
          (p) =>
            `${p} 1 bob 2024-01-05T10:00:00 ${p.startsWith("ApiSoap") ? "fault: no such message" : "HttpBindingError"}`,
        ),
      );
    });

  it("a CommonJS app require()s the one ES build: the runtime has no second copy", () => {
    const loaded = execFileSync(
      process.execPath,
      [
        "-e",
        `const r = require("@wsdl-tsgen/runtime");
import("@wsdl-tsgen/runtime").then((m) => console.log(require.resolve("@wsdl-tsgen/runtime"), r.SoapFault === m.SoapFault));`,
      ],
      { cwd: shared, encoding: "utf8" },
    );
    expect(loaded.trim()).toBe(`${path.join(runtimeDir, "dist/index.js")} true`);
  });
});

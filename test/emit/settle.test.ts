/**
 * Settled statements skip Prettier, so each must be exactly what Prettier prints: checked here against
 * Prettier itself, shape by shape, and on whole generated files (the samples must be fixed points).
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as prettier from "prettier";
import { formatTypeScript, PRETTIER_OPTIONS, SettledStatements } from "../../src/emit/format.js";
import { settleMember, settleProperty } from "../../src/emit/settle-members.js";
import { settle, stringConst } from "../../src/emit/settle.js";

const prettierSays = async (code: string) => (await formatTypeScript(code)).replace(/\n$/, "");

const field = (i: number) => `field("Field${i}", NS, xs.string, { min: 0 })`;
const hugged = (n: number) =>
  `export const Thing: ComplexDesc = complex("Thing", () => [\n${Array.from({ length: n }, (_, i) => `  ${field(i)},`).join("\n")}\n]);`;

/** One test per case: `settleFn` settles the code, exactly as `prettier` lays it out. */
function laysOutAsPrettier(
  cases: readonly (readonly [string, string])[],
  settleFn: (code: string) => string | undefined,
  prettier: (code: string) => Promise<string>,
): void {
  for (const [what, code] of cases) {
    it(`lays out ${what} as Prettier does`, async () => {
      const s = settleFn(code);
      expect(s).toBeDefined();
      expect(s).toBe(await prettier(code));
    });
  }
}

describe("settle", () => {
  const settled = [
    [
      "a short line",
      'export const Color: ScalarDesc = scalar("string", { values: ["Red", "Green"] });',
    ],
    ["a type alias", "export type Tags = (string | null)[];"],
    [
      "a long export list",
      `export type { ${Array.from({ length: 20 }, (_, i) => `Name${i}`).join(", ")} } from "./types.js";`,
    ],
    [
      "a long import list",
      `import { type ComplexDesc, ${Array.from({ length: 12 }, (_, i) => `name${i}`).join(", ")} } from "wsdl-tsgen/runtime";`,
    ],
    [
      "an interface with docs",
      "/**\n * A thing.\n * Two lines.\n */\nexport interface Thing {\n  /** The id. */\n  Id: bigint;\n  Name?: string | null;\n  Items: (Item | null)[];\n}",
    ],
    [
      "an interface whose member docs hold quotes, backticks and non-ASCII",
      'export interface Circle {\n  /** This value\'s type (`xsi:type` on the wire) \u2014 "quoted", longer than the print width on purpose, which Prettier leaves alone. */\n  $type?: "Circle";\n  /**\n   * Two lines, it\'s \u00e9.\n   */\n  Radius: string;\n}',
    ],
    ["a field list that fits on one line", hugged(1)],
    ["a field list that does not", hugged(3)],
    ["an empty field list", 'export const Empty: ComplexDesc = complex("Empty", () => [\n\n]);'],
  ] as const;
  for (const [what, code] of settled) {
    it(`lays out ${what} as Prettier does`, async () => {
      const s = settle(code);
      expect(s).toBeDefined();
      expect(s).toBe(await prettierSays(code));
    });
  }

  const left = [
    ["redundant parentheses", "export type IntList = (number)[];"],
    [
      "a line over the width of no known shape",
      `export type Long = Record<${Array.from({ length: 12 }, (_, i) => `"value${i}"`).join(" | ")}, string>;`,
    ],
    ["an escaped quote", 'export type Q = "say \\"hi\\"";'],
    ["non-ASCII code", 'export type E = "é";'],
    [
      "a field list with options",
      'export const Price: ComplexDesc = complex("Price", () => [], {\n  text: xs.decimal,\n});',
    ],
    [
      "an intersection type",
      "export type Order = {\n  Id: bigint;\n} & ({ A: string } | { B: string });",
    ],
    ["a member with an object type", "export interface Holder {\n  inner: { a: string };\n}"],
  ] as const;
  for (const [what, code] of left) {
    it(`leaves ${what} to Prettier`, () => {
      expect(settle(code)).toBeUndefined();
    });
  }
});

describe("stringConst", () => {
  for (const [what, value] of [
    ["short", "<a/>"],
    [
      "long, with more double quotes",
      `<?xml version="1.0"?>\n<definitions name="x" targetNamespace="urn:x">${"<part/>".repeat(20)}</definitions>`,
    ],
    [
      "long, with single quotes and backslashes",
      `<a b='1' c="2" d='3'>\\ \u2028 ${"x".repeat(120)}</a>`,
    ],
    [
      "long, with more double quotes, single ones and backslashes before quotes",
      `<a b="1" c="2" d='3'>\\" \\' \\\\" it's ${"x".repeat(100)}</a>`,
    ],
    ["long, non-ASCII", `<a title="é">${"ü".repeat(150)}</a>`],
  ] as const) {
    it(`prints a ${what} string as Prettier does`, async () => {
      expect(stringConst("WSDL", value)).toBe(
        await prettierSays(`export const WSDL = ${JSON.stringify(value)};`),
      );
    });
  }
  it("leaves a short non-ASCII string to Prettier (its width is Prettier's to measure)", () => {
    expect(stringConst("WSDL", "<a>日本</a>")).toBeUndefined();
  });
});

describe("SettledStatements", () => {
  it("formats around placeholders and puts the statements back, blank lines kept", async () => {
    const s = new SettledStatements();
    const code = `// header\nimport {   a } from "m";\n\n${s.add(hugged(3))}\n\n\n${s.add("export type A = string;")}\nexport   const   b = a;\n`;
    expect(await s.format(code)).toBe(
      `// header\nimport { a } from "m";\n\n${await prettierSays(hugged(3))}\n\nexport type A = string;\nexport const b = a;\n`,
    );
  });
});

describe("generated samples", () => {
  const files = readdirSync("generated-samples", { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .sort();
  it("finds the samples, the corpus goldens among them", () => {
    expect(files).toContain("message-service/client.ts");
    expect(files.some((f) => f.startsWith("corpus/"))).toBe(true);
  });
  for (const file of files) {
    it(`${file} is a fixed point of Prettier, with our parser (babel-ts) and with the typescript one users run`, async () => {
      const text = readFileSync(`generated-samples/${file}`, "utf8");
      expect(await formatTypeScript(text)).toBe(text);
      expect(await prettier.format(text, { ...PRETTIER_OPTIONS, parser: "typescript" })).toBe(text);
    });
  }
});

describe("settle, statements over the width", () => {
  const longName = "GetCampaignsByAccountIdRequestWithAVeryLongNameIndeed";
  const cases = [
    [
      "a long union that fits on the next line",
      `export type BudgetLimitType = "DailyBudgetAccelerated" | "DailyBudgetStandard" | "LifetimeBudgetStandard";`,
    ],
    [
      "a long union",
      `export type Status = ${Array.from({ length: 14 }, (_, i) => `"Status${i}"`).join(" | ")};`,
    ],
    [
      "scalar values that fit on one line",
      `export const Budget: ScalarDesc = scalar("string", { values: ["DailyBudgetAccelerated", "DailyBudgetStandard", "LifetimeBudget"] });`,
    ],
    [
      "scalar values that do not",
      `export const AdType: ScalarDesc = scalar("string", { values: [${Array.from({ length: 14 }, (_, i) => `"AdType${i}"`).join(", ")}] });`,
    ],
    [
      "a scalar list with values",
      `export const AdTypes: ScalarDesc = scalar("string", { list: true, values: [${Array.from({ length: 14 }, (_, i) => `"AdType${i}"`).join(", ")}] });`,
    ],
    [
      "an array descriptor",
      `export const ArrayOfSetting: ArrayDesc = array("ArrayOfSetting", field("Setting", NS, () => Setting, { min: 0, max: UNBOUNDED, nillable: true }));`,
    ],
    [
      "a field list whose hugged first line is too long, fitting flat",
      `export const ${longName}: ComplexDesc = complex("${longName}", () => [\n  ${field(1)},\n]);`,
    ],
    [
      "a field list whose hugged first line is too long",
      `export const ${longName}: ComplexDesc = complex("${longName}", () => [\n${[1, 2, 3].map((i) => `  ${field(i)},`).join("\n")}\n]);`,
    ],
  ] as const;
  laysOutAsPrettier(cases, settle, prettierSays);
  it("leaves a long union of object types to Prettier", () => {
    expect(
      settle(
        `export type U = ${Array.from({ length: 10 }, (_, i) => `{ a${i}: string }`).join(" | ")};`,
      ),
    ).toBeUndefined();
  });
});

describe("settleExpression: descriptor statements", () => {
  const op = (name: string) =>
    `${name}: { kind: "soap", action: \`\${NS}${name}\`, request: { element: field("${name}", NS, () => ${name}) }, response: { element: field("${name}ResponseWithALongerName", NS, () => ${name}ResponseWithALongerName), prop: "${name}Result" }, oneWay: false, faults: [AFaultDesc, BFaultDesc] },`;
  const service = `export const ApiDesc: ServiceDesc = {
  name: "Api",
  targetNamespace: NS,
  defaultPort: "ApiSoap",
  ports: {
    ApiSoap: {
      name: "ApiSoap",
      protocol: "soap11",
      address: "http://example.com/a/very/long/address/that/goes/on/and/on/and/on/until/it/no/longer/fits/api.asmx",
      operations: {
        ${op("GetMessages")}
        ${op("Ping")}
        Http: { kind: "http", location: "/Http", params: [{ name: "a", prop: "a", type: xs.string, required: true, repeated: false }, { name: "b", prop: "b", type: xs.int, required: false, repeated: false }], response: undefined },
      },
    },
  },
};`;
  const cases = [
    ["a service descriptor", service],
    [
      "a field list with options",
      `export const Circle: ComplexDesc = complex("Circle", () => [field("Name", NS, xs.string), field("Color", NS, Color, { min: 0 }), field("Radius", NS, xs.decimal)], { attrs: [attribute("id", "", xs.long, { required: true }), attribute("version", "", xs.int)] });`,
    ],
    [
      "a field with a long thunk",
      `export const Campaign: ComplexDesc = complex("Campaign", () => [field("ForwardCompatibilityMap", NS, () => ArrayOfKeyValuePairOfstringstring, { min: 0, nillable: true }), field("Id", NS, xs.long)]);`,
    ],
  ] as const;
  laysOutAsPrettier(cases, settle, prettierSays);
  it("leaves a nested thunk of an empty array to Prettier", () => {
    expect(
      settle(
        'export const D: ServiceDesc = { request: { element: field("NoParams", NS, complex("NoParams", () => [])) } };',
      ),
    ).toBeUndefined();
  });
  it("leaves arrow functions with parameters to Prettier", () => {
    expect(
      settle(
        "export const F: FaultDesc = {\n  create: (init, detail) => new F(init, detail as D),\n};",
      ),
    ).toBeUndefined();
  });
});

describe("settleMember and settleProperty: client and server members", () => {
  const inClass = async (member: string) => {
    const out = await formatTypeScript(`class A {\n${member}\n}\n`);
    return out.slice("class A {\n".length, -"}\n".length - 1);
  };
  const long = "GetCampaignsByAccountIdRequestWithALongName";
  const cases = [
    [
      "a client method that fits",
      `  /** Doc. */\n  async ping(input: Ping, options?: CallOptions): Promise<void> {\n    await this.#client.call("Ping", input, options);\n  }`,
    ],
    [
      "a client method with a long signature and result",
      `  async getX(input: ${long}Input, options?: CallOptions): Promise<${long}Response> {\n    return (await this.#client.call("${long}", input, options)) as ${long}Response;\n  }`,
    ],
    [
      "a client method with a long union result",
      `  async getMessagesInDateRange(input: GetMessagesInDateRangeInput, options?: CallOptions): Promise<ArrayOfMessages | undefined> {\n    return (await this.#client.call("GetMessagesInDateRange", input, options)) as ArrayOfMessages | undefined;\n  }`,
    ],
    [
      "a server signature",
      `  getMessages(input: ${long}, context: RequestContext): ArrayOfMessagesInput | undefined | Promise<ArrayOfMessagesInput | undefined>;`,
    ],
  ] as const;
  laysOutAsPrettier(cases, settleMember, inClass);
  const inInterface = async (member: string) => {
    const out = await formatTypeScript(`interface A {\n${member}\n}\n`);
    return out.slice("interface A {\n".length, -"}\n".length - 1);
  };
  const op = "GetAudienceGroupAssetGroupAssociationsByAudienceGroupIds";
  laysOutAsPrettier(
    [
      [
        "a server signature whose union result does not fit after the parameters",
        `  getNegativeSitesByCampaignIds(input: GetNegativeSitesByCampaignIdsRequest, context: RequestContext<CampaignManagementServiceSoapHeaders>): GetNegativeSitesByCampaignIdsResponseInput | Promise<GetNegativeSitesByCampaignIdsResponseInput>;`,
      ],
      [
        "a server signature whose three-member union result does not fit",
        `  get(input: ${op}Request, context: RequestContext<H>): ${op}ResponseInput | undefined | Promise<${op}ResponseInput | undefined>;`,
      ],
      [
        "a documented server signature with generic context arguments",
        `  /** Doc. */
  get(input: ${op}Request, context: RequestContext<A, AInput>): ${op}Response | Promise<${op}Response>;`,
      ],
    ],
    settleMember,
    inInterface,
  );
  it("leaves a union result whose members do not fit on their own lines to Prettier", () => {
    const huge = "X".repeat(100);
    expect(
      settleMember(
        `  get(input: ${op}Request, context: RequestContext): ${huge} | Promise<${huge}>;`,
      ),
    ).toBeUndefined();
  });
  for (const entry of [
    "      DeleteMessage: (input: DeleteMessage, context) => impl.deleteMessage(input, context),",
    "      GetMessagesInDateRangeAndMore: (input: GetMessagesInDateRangeAndMore, context) => impl.getMessagesInDateRangeAndMore(input, context),",
  ]) {
    it(`lays out a handler entry of ${entry.length} characters as Prettier does`, async () => {
      const out = await formatTypeScript(
        `f(\n  a,\n  b,\n  {\n${entry.slice(2)}\n  },\n  c,\n);\n`,
      );
      const expected = out
        .split("\n")
        .slice(4, -4)
        .map((l) => `  ${l}`)
        .join("\n");
      expect(settleProperty(entry)).toBe(expected);
    });
  }
  it("leaves a handler entry whose parameters do not fit to Prettier", () => {
    expect(
      settleProperty(
        `      ${long}: (input: ${long}, context) => impl.getMessagesInDateRange(input, context),`,
      ),
    ).toBeUndefined();
  });
});

describe("settleMember: unions with null", () => {
  it("leaves a long return of a union with null to Prettier", () => {
    const code = `  async describeSObject(input: DescribeSObject, options?: CallOptions): Promise<DescribeSObjectResult | null> {\n    return (await this.#client.call("describeSObject", input, options)) as DescribeSObjectResult | null;\n  }`;
    expect(settleMember(code)).toBeUndefined();
  });
});

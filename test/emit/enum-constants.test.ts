/**
 * `--enum-constants` (issue #32): a const object of each enumeration's values beside its union type,
 * exported from index.ts as a value, usable where the type is; off by default.
 */
import { describe, expect, it } from "vitest";
import { generateFiles } from "../../src/generate.js";
import { compileErrors } from "../support/compile.js";
import { oneOperationWsdl } from "../support/one-operation-wsdl.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const WSDL = oneOperationWsdl(
  `<xs:simpleType name="Mode"><xs:restriction base="xs:string">
    <xs:enumeration value="on"/><xs:enumeration value="off-line"/><xs:enumeration value="1"/>
    <xs:enumeration value="__proto__"/><xs:enumeration value="default"/><xs:enumeration value="on"/>
  </xs:restriction></xs:simpleType>
  <xs:simpleType name="Modes"><xs:list itemType="t:Mode"/></xs:simpleType>`,
  '<xs:element name="Mode" type="t:Mode"/><xs:element name="Modes" type="t:Modes"/>',
);

const USE = `import { Mode, type Modes, type Req } from "./index.js";
const m: Mode = Mode.on;
const values: readonly Mode[] = Object.values(Mode);
const req: Req = { Mode: Mode["off-line"], Modes: [Mode["1"], Mode.default, Mode["__proto__"]] };
// @ts-expect-error: not a value of the enumeration
const wrong: Mode = "standby";
export const used = [m, values, req, wrong] as const satisfies readonly unknown[];
export type Lists = Modes;
`;

describe("enum constants", () => {
  it("are declared beside the union, every value under its own name, and compile in use", async () => {
    const file = writeTemp(tempDir(), "enums.wsdl", WSDL);
    const r = await generateFiles(file, { enumConstants: true, embedWsdl: false });
    const types = r.files.find((f) => f.path === "types.ts")!.content;
    expect(types).toContain(
      [
        "export const Mode = {",
        '  on: "on",',
        '  "off-line": "off-line",',
        '  "1": "1",',
        '  ["__proto__"]: "__proto__",',
        '  default: "default",',
        "} as const;",
      ].join("\n"),
    );
    // A list of them is a type only.
    expect(types).not.toContain("export const Modes");
    const index = r.files.find((f) => f.path === "index.ts")!.content;
    expect(index).toMatch(/export \{[^}]*\bMode\b[^}]*\} from "\.\/types\.js";/);
    expect(index).not.toMatch(/export type \{[^}]*\bMode\b,[^}]*\} from "\.\/types\.js";/);
    expect(compileErrors([...r.files, { path: "use.ts", content: USE }])).toEqual([]);
    // The @ts-expect-error above is checked: without it, the wrong value is an error.
    const unexpected = USE.replace("// @ts-expect-error: not a value of the enumeration\n", "");
    expect(compileErrors([...r.files, { path: "use.ts", content: unexpected }])).toEqual([
      expect.stringContaining('"standby"'),
    ]);
  });

  it("are off by default", async () => {
    const file = writeTemp(tempDir(), "enums.wsdl", WSDL);
    const r = await generateFiles(file, { embedWsdl: false });
    expect(r.files.find((f) => f.path === "types.ts")!.content).not.toContain("export const");
  });
});

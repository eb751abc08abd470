/**
 * Fields named like properties every object inherits (`constructor`, `toString`, `valueOf`,
 * `__proto__`) are read and written as own properties: absent means absent, and `__proto__` is a
 * property, not the prototype.
 */
import { describe, expect, it } from "vitest";
import {
  attribute,
  complex,
  field,
  UNBOUNDED,
  xs,
} from "../../runtime/src/descriptors/builders.js";
import { decodeHttpParams, encodeHttpParams } from "../../runtime/src/http/binding.js";
import type { HttpOperationDesc } from "../../runtime/src/descriptors/operations.js";
import { decodeDocument } from "../../runtime/src/xml/reader.js";
import { XmlDecodeError } from "../../runtime/src/xml/decode-options.js";
import { ValueFormatError } from "../../runtime/src/scalars/scalars.js";
import { writeElement } from "../../runtime/src/xml/writer.js";

const NS = "urn:t";
const A = complex(
  "A",
  () => [
    field("__proto__", NS, xs.string, { min: 0 }),
    field("constructor", NS, xs.int),
    field("toString", NS, xs.string, { min: 0 }),
    field("valueOf", NS, xs.int, { min: 0, max: UNBOUNDED }),
  ],
  { attrs: [attribute("hasOwnProperty", "", xs.string)] },
);
const root = field("A", NS, A);
const read = (xml: string) => decodeDocument(xml, [root]).value as Record<string, unknown>;
const write = (value: unknown) => {
  const out: string[] = [];
  writeElement(out, "A", NS, "", A, value, false, "A", "");
  return out.join("");
};

describe("fields named like inherited properties", () => {
  it("decode to own properties, repeated ones to arrays", () => {
    const v = read(
      `<A xmlns="urn:t" hasOwnProperty="h"><__proto__>p</__proto__><constructor>1</constructor><toString>t</toString><valueOf>2</valueOf><valueOf>3</valueOf></A>`,
    );
    expect(Object.keys(v)).toEqual([
      "hasOwnProperty",
      "__proto__",
      "constructor",
      "toString",
      "valueOf",
    ]);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect([
      v["hasOwnProperty"],
      v["__proto__"],
      v["constructor"],
      v["toString"],
      v["valueOf"],
    ]).toEqual(["h", "p", 1, "t", [2, 3]]);
  });

  it("absent is absent: a missing required one is missing, a missing repeated one an empty array", () => {
    expect(() => read(`<A xmlns="urn:t"><toString>t</toString></A>`)).toThrow(XmlDecodeError);
    expect(() => read(`<A xmlns="urn:t"><toString>t</toString></A>`)).toThrow(
      "element constructor is missing from A",
    );
    const v = read(`<A xmlns="urn:t"><constructor>1</constructor></A>`);
    expect(Object.keys(v)).toEqual(["constructor", "valueOf"]);
    expect(v["valueOf"]).toEqual([]);
  });

  it("write from own properties only, and read back the same", () => {
    const value = { ["__proto__"]: "p", constructor: 1, valueOf: [4], hasOwnProperty: "h" };
    const xml = write(value);
    expect(xml).toBe(
      '<A xmlns="urn:t" hasOwnProperty="h"><__proto__>p</__proto__><constructor>1</constructor><valueOf>4</valueOf></A>',
    );
    expect(read(xml)).toEqual({ ...value, valueOf: [4] });
    expect(write({ constructor: 1 })).toBe('<A xmlns="urn:t"><constructor>1</constructor></A>');
    expect(() => write({})).toThrow(ValueFormatError);
    expect(() => write({})).toThrow("A.constructor is required");
  });

  it("travel as HTTP GET/POST parameters the same way", () => {
    const op: HttpOperationDesc = {
      kind: "http",
      location: "/Op",
      params: [
        { name: "constructor", prop: "constructor", type: xs.int, required: true, repeated: false },
        { name: "toString", prop: "toString", type: xs.string, required: false, repeated: false },
        { name: "__proto__", prop: "__proto__", type: xs.string, required: false, repeated: false },
      ],
      response: undefined,
    };
    expect(encodeHttpParams(op, { constructor: 7 }).toString()).toBe(
      "constructor=7&toString=&__proto__=",
    );
    expect(() => encodeHttpParams(op, {})).toThrow("constructor is required");
    const input = decodeHttpParams(op, new URLSearchParams("constructor=7&toString=t&__proto__=p"));
    expect(Object.keys(input)).toEqual(["constructor", "toString", "__proto__"]);
    expect(input["__proto__"]).toBe("p");
  });
});

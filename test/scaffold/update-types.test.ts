/**
 * What `update` says changed inside the generated types: members removed, added and retyped,
 * aliases, an `extends` clause, and only for the types a signature reaches.
 */
import { describe, expect, it } from "vitest";
import { typeChangeReporter, typeNames } from "../../src/scaffold/update-types.js";

const OLD = `
/** A doc comment, ignored. */
export interface Outer { id: number; inner?: Inner; list: Item[] }
export interface Inner { note: string }
export interface Item { a: string; b: string; c: string; d: string; e: string }
export interface Apart { z: string }
export type Kind = "a" | "b";
export interface Sub extends Outer { x: string }
`;

const NEW = `
export interface Outer { id: bigint; inner?: Inner; list: Item[]; kind: Kind }
export interface Inner {
  // layout and comments do not count
  note: string
}
export interface Item { f: string; g: string; h: string; i: string; j: string }
export interface Apart { y: string }
export type Kind = "a";
export interface Sub extends Inner { x: string }
`;

describe("typeChangeReporter", () => {
  const reach = typeChangeReporter(OLD, NEW, 3);

  it("lists each changed type the roots reach, through members, sorted by name", () => {
    expect(reach(["Outer"])).toEqual([
      "Item: a removed; b removed; c removed; and 7 more",
      'Kind: now "a"',
      "Outer: id now id: bigint; kind added",
    ]);
  });

  it("leaves out types that changed but are not reached, and unchanged ones", () => {
    expect(reach(["Inner"])).toEqual([]);
    expect(reach(["Apart"])).toEqual(["Apart: z removed; y added"]);
    expect(reach(["Missing", "undefined"])).toEqual([]);
  });

  it("counts an extends clause as part of the type", () => {
    expect(reach(["Sub"])).toContain("Sub: extends now extends Inner");
  });

  it("reads the names a signature's type text holds", () => {
    expect(typeNames("ArrayOfMessagesInput | undefined")).toEqual([
      "ArrayOfMessagesInput",
      "undefined",
    ]);
  });
});

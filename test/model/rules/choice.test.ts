/** Choice (src/model/rules/choice.ts): which choice and branch each flattened field is in. */
import { describe, expect, it } from "vitest";
import type { ComplexType } from "../../../src/model/model.js";
import type { RawParticle } from "../../../src/parse/xsd.js";
import {
  choice,
  complexType,
  element,
  mapped,
  schema,
  schemaSet,
  sequence,
  xs,
} from "../../support/schema-factory.js";

/** Each field as name, minOccurs, maxOccurs and choice ref. */
const marks = (t: ComplexType) =>
  t.fields.map((f) => [f.name.local, f.minOccurs, f.maxOccurs, f.choice]);

const typeOf = (particle: RawParticle): ComplexType => {
  const { set } = schemaSet(schema({ complexTypes: [complexType("T", { particle })] }));
  return mapped(set, "T");
};

describe("choice", () => {
  it("marks each branch; a sequence or choice in a branch shares it, and an optional choice is marked optional", () => {
    const t = typeOf(
      choice(
        [
          element("a", xs("int")),
          sequence([element("b", xs("int")), element("c", xs("int"))]),
          choice([element("d", xs("int")), element("e", xs("int"))]),
        ],
        { min: 0 },
      ),
    );
    const ref = (branch: number) => ({ group: 0, branch, optional: true, repeated: false });
    expect(marks(t)).toEqual([
      // Right in a branch: its own minOccurs; the choice's optionality is in its ref.
      ["a", 1, 1, ref(0)],
      // Deeper: optional as the particles around it make it.
      ["b", 0, 1, ref(1)],
      ["c", 0, 1, ref(1)],
      ["d", 0, 1, ref(2)],
      ["e", 0, 1, ref(2)],
    ]);
  });

  it("numbers the choices of a type in order; a repeated one is marked repeated and its fields are arrays", () => {
    const t = typeOf(
      sequence([
        element("before", xs("int")),
        choice([element("a", xs("int")), element("b", xs("int"))]),
        choice([element("c", xs("int")), element("d", xs("int"))], { max: Infinity }),
      ]),
    );
    expect(marks(t)).toEqual([
      ["before", 1, 1, undefined],
      ["a", 1, 1, { group: 0, branch: 0, optional: false, repeated: false }],
      ["b", 1, 1, { group: 0, branch: 1, optional: false, repeated: false }],
      ["c", 1, Infinity, { group: 1, branch: 0, optional: false, repeated: true }],
      ["d", 1, Infinity, { group: 1, branch: 1, optional: false, repeated: true }],
    ]);
  });

  it("gives the fields of a sequence in a mandatory choice's branch their own minOccurs", () => {
    const t = typeOf(choice([element("a", xs("int")), sequence([element("b", xs("int"))])]));
    expect(t.fields.map((f) => [f.name.local, f.minOccurs, f.choice?.branch])).toEqual([
      ["a", 1, 0],
      ["b", 1, 1],
    ]);
  });
});

/** Each field as name and the list it is in (its index among the type's lists), if any. */
const lists = (t: ComplexType) => {
  const seen: unknown[] = [];
  return t.fields.map((f) => {
    if (!f.ordered) return [f.name.local, undefined];
    if (!seen.includes(f.ordered)) seen.push(f.ordered);
    return [f.name.local, { list: seen.indexOf(f.ordered), optional: f.ordered.optional }];
  });
};

describe("ordered lists (ordered-lists.ts)", () => {
  it("make a repeated choice one list, optional when the choice is", () => {
    const t = typeOf(
      sequence([
        element("before", xs("int")),
        choice([element("a", xs("int")), element("b", xs("int"))], { min: 0, max: Infinity }),
        choice([element("c", xs("int")), element("d", xs("int"))], { max: Infinity }),
      ]),
    );
    expect(lists(t)).toEqual([
      ["before", undefined],
      ["a", { list: 0, optional: true }],
      ["b", { list: 0, optional: true }],
      ["c", { list: 1, optional: false }],
      ["d", { list: 1, optional: false }],
    ]);
  });

  it("make a repeated sequence holding a choice one list, with what is around the choice", () => {
    const t = typeOf(
      sequence(
        [element("key", xs("int")), choice([element("a", xs("int")), element("b", xs("int"))])],
        { min: 0, max: Infinity },
      ),
    );
    expect(lists(t)).toEqual([
      ["key", { list: 0, optional: true }],
      ["a", { list: 0, optional: true }],
      ["b", { list: 0, optional: true }],
    ]);
  });

  it("leave a repeated sequence without a choice, and a repeated choice of one element, arrays", () => {
    const t = typeOf(
      sequence([
        sequence([element("k", xs("int")), element("v", xs("int"))], { max: Infinity }),
        choice([element("only", xs("int"))], { max: Infinity }),
      ]),
    );
    expect(lists(t)).toEqual([
      ["k", undefined],
      ["v", undefined],
      ["only", undefined],
    ]);
    expect(t.fields.map((f) => f.maxOccurs)).toEqual([Infinity, Infinity, Infinity]);
  });

  it("open one list at the outermost repeated particle: a repeated choice inside it joins it", () => {
    const t = typeOf(
      sequence(
        [
          element("key", xs("int")),
          choice([element("a", xs("int")), element("b", xs("int"))], { max: Infinity }),
        ],
        { max: Infinity },
      ),
    );
    expect(new Set(t.fields.map((f) => f.ordered)).size).toBe(1);
    expect(t.fields[0]!.ordered).toBeDefined();
  });
});

describe("a choice nested in a branch of another", () => {
  it("makes each of its elements optional in that branch: none is forced", () => {
    const t = typeOf(
      choice([element("a", xs("int")), choice([element("d", xs("int")), element("e", xs("int"))])]),
    );
    expect(t.fields.map((f) => [f.name.local, f.minOccurs, f.choice?.branch])).toEqual([
      ["a", 1, 0],
      ["d", 0, 1],
      ["e", 0, 1],
    ]);
  });
});

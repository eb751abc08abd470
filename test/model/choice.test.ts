/** Choice (src/transform/choice.ts): which choice and branch each flattened field is in. */
import { describe, expect, it } from "vitest";
import type { ComplexType } from "../../src/model/model.js";
import type { RawParticle } from "../../src/parse/xsd.js";
import {
  choice,
  complexType,
  element,
  mapped,
  schema,
  schemaSet,
  sequence,
  xs,
} from "../support/schema-factory.js";

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

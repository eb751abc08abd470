/**
 * Choice: the branches of an `xs:choice` become fields marked with a `ChoiceRef` (which choice of
 * the type, which branch, whether the choice may be absent or repeats), from which the emitters
 * make one union per choice. A choice nested in a branch of another stays part of that branch, so
 * there is one union per outermost choice; the elements of a sequence in a branch share it, and
 * those of a nested choice are each optional there (one of them is given, which the union cannot
 * say: none is forced). An element right in a branch keeps its own minOccurs, since the choice's
 * optionality is in its ref. A repeated choice is no union but an ordered list (ordered-lists.ts).
 * Called by content flattening (flatten.ts) for each particle, while a type is mapped.
 */
import type { RawParticle } from "../../parse/xsd.js";
import type { ChoiceRef } from "../model.js";

/**
 * How a particle's items stand in a choice: `opened` is the number of the choice it opens, if it
 * does.
 */
export interface ChoiceScope {
  readonly opened: number | undefined;
  /** The ref of item `i`: its branch of the choice opened here, or the enclosing branch. */
  readonly itemRef: (i: number) => ChoiceRef | undefined;
}

/**
 * The choice scope of particle `p` inside `enclosing` (the branch it is in, if any); `counter`
 * numbers the type's choices in document order. `optional` and `repeated` are `p`'s occurrence
 * combined with that of the particles around it.
 */
export function choiceScope(
  p: RawParticle,
  enclosing: ChoiceRef | undefined,
  counter: { choices: number },
  optional: boolean,
  repeated: boolean,
): ChoiceScope {
  const opened = p.kind === "choice" && enclosing === undefined ? counter.choices++ : undefined;
  if (opened === undefined) return { opened, itemRef: () => enclosing };
  // An empty choice matches nothing, which the union can only say as an absent choice.
  const absent = optional || p.items.length === 0;
  return {
    opened,
    itemRef: (branch) => ({ group: opened, branch, optional: absent, repeated }),
  };
}

/**
 * The minOccurs of an element flattened out of optional particles (`optional`): 0, unless it sits
 * right in a branch of the choice that `scope` opens, whose optionality its ref carries.
 */
export const branchMinOccurs = (
  minOccurs: number,
  optional: boolean,
  scope: ChoiceScope,
): number => (optional && scope.opened === undefined ? 0 : minOccurs);

/**
 * Whether `p` is a choice of more than one branch inside a branch of another (`enclosing`): its
 * elements are then optional, each standing for one of its branches.
 */
export const nestedChoice = (p: RawParticle, enclosing: ChoiceRef | undefined): boolean =>
  p.kind === "choice" && enclosing !== undefined && p.items.length > 1;

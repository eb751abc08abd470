/**
 * Content flattening: a complex type's content model (sequences, choices, `xs:all` and group
 * references, nested to any depth) becomes one list of element fields in document order, the
 * order the generated types, descriptors and wire share. Occurrence is carried down: the elements
 * of an optional particle are optional, those of a repeated one are arrays, or items of one ordered
 * list where the repeated particle holds a choice (ordered-lists.ts). An `xs:any`, or a
 * group declared nowhere, makes the content open (kept raw in `$any`) and the place of the first
 * is kept; a group that contains itself is left out of itself with a warning. Mapping is lazy, so
 * this is a rule SchemaSet applies as it maps each type, not a pass over mapped types. At each
 * particle it applies the choice (choice.ts) and ordered list (ordered-lists.ts) rules, and at
 * each element reference the schema set gives the substitution group's members
 * (substitution-groups.ts).
 */
import type { DiagnosticBag, SourceLocation } from "../../diagnostics.js";
import type { QName } from "../../parse/qname.js";
import type { RawElement, RawGroupRef, RawParticle, RawSchema } from "../../parse/xsd.js";
import { recovery } from "../../recovery.js";
import type { ChoiceRef, ElementField } from "../model.js";
import { branchMinOccurs, choiceScope, nestedChoice } from "./choice.js";
import { mayOpenList, orderedFields } from "./ordered-lists.js";
import { ownContent, type MappingRule } from "./rule.js";
import { wildcardSample, type DeclaredElement, type WildcardSample } from "./wildcard-sample.js";

/** What flattening needs of the schema set. */
export interface FlattenContext {
  readonly diagnostics: DiagnosticBag;
  /** The group `ref` names, keyed; when declared nowhere, undefined, said by the callee. */
  group(
    ref: QName,
    at: SourceLocation,
  ): { readonly key: string; readonly value: ScopedGroup } | undefined;
  /** The field of a local element or element reference, occurrence as written. */
  field(raw: RawElement, schema: RawSchema, hint: string): ElementField;
  /** Every global element declaration, in schema order (what a strict wildcard admits). */
  declaredElements(): Iterable<DeclaredElement>;
}

export interface ScopedGroup {
  readonly raw: RawParticle | undefined;
  readonly schema: RawSchema;
}

/**
 * A flattened content model: `anyPosition` is set when the first raw content comes before a field.
 */
export interface FlatContent {
  readonly fields: ElementField[];
  readonly anyElements: boolean;
  readonly anyPosition?: number;
  /** Set when a wildcard must be filled: a namespace it admits (`ComplexType.anyRequired`). */
  readonly anyRequired?: string;
  /** With it, a declared element there that fills it (`ComplexType.anyElement`). */
  readonly anyElement?: string;
}

/**
 * Where a particle sits: the branch it is in, the occurrence around it, whether it is in an ordered
 * list (ordered-lists.ts), the groups it is inside.
 */
interface Scope {
  readonly choice: ChoiceRef | undefined;
  readonly optional: boolean;
  readonly repeat: boolean;
  readonly inList: boolean;
  readonly groups: ReadonlySet<string>;
}

interface Walk {
  readonly cx: FlattenContext;
  readonly hint: string;
  choices: number;
  /** Every xs:choice met so far, nested ones included: whether a particle holds one. */
  choiceParticles: number;
  any: boolean;
  anyAt?: number;
  /** An element that meets the first required wildcard (`FlatContent`). */
  anyRequired?: WildcardSample;
  fields: number;
}

/** Gives a complex type its element fields, and whether (and where) it holds raw content. */
export const content: MappingRule<FlattenContext> = {
  name: "content",
  step: "content",
  apply({ ct, raw, schema, hint }, cx) {
    const flat = flattenContent(ownContent(raw).particle, schema, hint, cx);
    ct.fields = flat.fields;
    ct.anyElements = flat.anyElements;
    if (flat.anyPosition !== undefined) ct.anyPosition = flat.anyPosition;
    if (flat.anyRequired !== undefined) ct.anyRequired = flat.anyRequired;
    if (flat.anyElement !== undefined) ct.anyElement = flat.anyElement;
  },
};

/** Flattens the content model `particle` (of schema `schema`) of the type named by `hint`. */
export function flattenContent(
  particle: RawParticle | RawGroupRef | undefined,
  schema: RawSchema,
  hint: string,
  cx: FlattenContext,
): FlatContent {
  const w: Walk = { cx, hint, choices: 0, choiceParticles: 0, any: false, fields: 0 };
  const top: Scope = {
    choice: undefined,
    optional: false,
    repeat: false,
    inList: false,
    groups: new Set(),
  };
  const fields = particle ? flatten(w, particle, schema, top) : [];
  const r = w.anyRequired;
  const required = r === undefined ? {} : { anyRequired: r.ns, ...elementOf(r) };
  return w.anyAt !== undefined && w.anyAt < fields.length
    ? { fields, anyElements: w.any, anyPosition: w.anyAt, ...required }
    : { fields, anyElements: w.any, ...required };
}

const elementOf = (r: WildcardSample) => (r.element === undefined ? {} : { anyElement: r.element });

function flatten(
  w: Walk,
  p: RawParticle | RawGroupRef,
  schema: RawSchema,
  scope: Scope,
): ElementField[] {
  if (p.kind === "groupRef") return flattenGroup(w, p, scope);
  const repeat = scope.repeat || p.maxOccurs > 1;
  // A choice inside a branch of another is part of that branch: each of its branches optional.
  const optional = scope.optional || p.minOccurs === 0 || nestedChoice(p, scope.choice);
  const opens = mayOpenList(p.maxOccurs, scope.inList);
  const choicesBefore = w.choiceParticles;
  if (p.kind === "choice") w.choiceParticles++;
  const choices = choiceScope(p, scope.choice, w, optional, repeat);
  const inner: Scope = { ...scope, optional, repeat, inList: scope.inList || opens };
  const out: ElementField[] = [];
  p.items.forEach((item, i) => {
    const ref = choices.itemRef(i);
    if (item.kind === "element") {
      const f = w.cx.field(item, schema, w.hint);
      w.fields++;
      out.push({
        ...f,
        minOccurs: branchMinOccurs(f.minOccurs, optional, choices),
        maxOccurs: repeat && f.maxOccurs >= 1 ? Infinity : f.maxOccurs,
        choice: ref,
      });
    } else if (item.kind === "any") {
      markAny(w);
      // A wildcard a valid value must fill: samples put a harmless element there.
      if (item.minOccurs > 0 && !optional && ref === undefined)
        w.anyRequired ??= wildcardSample(item, schema.targetNamespace, () =>
          w.cx.declaredElements(),
        );
    } else {
      out.push(...flatten(w, item, schema, { ...inner, choice: ref }));
    }
  });
  return opens ? orderedFields(out, w.choiceParticles > choicesBefore, optional, p.loc) : out;
}

/** The fields of the group `p` refers to, with `p`'s occurrence. */
function flattenGroup(w: Walk, p: RawGroupRef, scope: Scope): ElementField[] {
  const found = w.cx.group(p.ref, p.loc);
  if (!found) {
    markAny(w);
    return [];
  }
  if (scope.groups.has(found.key)) {
    w.cx.diagnostics.add(
      recovery(
        "XSD_CIRCULAR",
        `the group {${p.ref.ns}}${p.ref.local} contains itself; expected a group that does not refer to itself; this reference to it is left out`,
        p.loc,
      ),
    );
    return [];
  }
  const g = found.value;
  if (!g.raw) return [];
  const optional = scope.optional || p.minOccurs === 0;
  const opens = mayOpenList(p.maxOccurs, scope.inList);
  const choicesBefore = w.choiceParticles;
  const fields = flatten(w, g.raw, g.schema, {
    choice: scope.choice,
    optional,
    repeat: scope.repeat || p.maxOccurs > 1,
    inList: scope.inList || opens,
    groups: new Set(scope.groups).add(found.key),
  });
  return opens ? orderedFields(fields, w.choiceParticles > choicesBefore, optional, p.loc) : fields;
}

/** Content kept raw in `$any` where the flattening has got to: the first one's place is kept. */
function markAny(w: Walk): void {
  w.any = true;
  w.anyAt ??= w.fields;
}

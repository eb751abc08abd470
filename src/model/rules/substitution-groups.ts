/**
 * Substitution groups: where an element reference names the head of a substitution group, any
 * member of the group may stand instead, directly or through another member, and the field lists
 * those members (`ElementField.substitutes`) so that each is read and written as itself. Abstract
 * members stand for nothing themselves, but their members do. A member of simple type cannot be
 * told apart in JS (its value carries no `$element`), so it is left out with a warning. Members
 * may hold their head (`And` holds `Expr`, whose members include `And`), which is why SchemaSet
 * gives an element its complex type before mapping the type's content. Called by SchemaSet at
 * each element reference; the members of a head are found once.
 */
import type { DiagnosticBag, SourceLocation } from "../../diagnostics.js";
import { qnameKey, type QName } from "../../parse/qname.js";
import type { RawElement, RawSchema } from "../../parse/xsd.js";
import type { ElementDecl } from "../model.js";
import { referrers, type Declared } from "./referrers.js";

export class SubstitutionGroups {
  /** Global elements by the key of the substitution group head they name, in schema order. */
  private membersByHead: Map<string, Declared<RawElement>[]> | undefined;
  /** The members found for each head, so that every reference to it reuses them. */
  private readonly membersOf = new Map<ElementDecl, readonly ElementDecl[]>();

  constructor(
    /** The global elements of every schema by key, in schema order. */
    private readonly declared: ReadonlyMap<
      string,
      { readonly raw: RawElement; readonly schema: RawSchema }
    >,
    /** The global element of a name, mapped. */
    private readonly element: (name: QName, at: SourceLocation) => ElementDecl,
    private readonly diagnostics: DiagnosticBag,
  ) {}

  /**
   * The elements that may stand where `head` is referenced (at `at`), in schema order, depth first.
   */
  members(head: ElementDecl, at: SourceLocation): readonly ElementDecl[] {
    const known = this.membersOf.get(head);
    if (known) return known;
    const out: ElementDecl[] = [];
    const seen = new Set<string>([qnameKey(head.name)]);
    const walk = (h: ElementDecl): void => {
      for (const { name } of this.byHead().get(qnameKey(h.name)) ?? []) {
        const k = qnameKey(name);
        if (seen.has(k)) continue;
        seen.add(k);
        const m = this.element(name, at);
        if (!m.abstract) {
          if (m.type.kind === "complex") out.push(m);
          else this.skipped(m, head);
        }
        walk(m);
      }
    };
    walk(head);
    this.membersOf.set(head, out);
    return out;
  }

  private byHead(): Map<string, Declared<RawElement>[]> {
    return (this.membersByHead ??= referrers(this.declared, (raw) => raw.substitutionGroup));
  }

  private skipped(m: ElementDecl, head: ElementDecl): void {
    this.diagnostics.warn(
      "XSD_SUBSTITUTE_SKIPPED",
      `element {${m.name.ns}}${m.name.local} may stand for {${head.name.ns}}${head.name.local}, but its type is simple, so its values could not be told apart; it is not read or written in that place`,
      m.loc,
    );
  }
}

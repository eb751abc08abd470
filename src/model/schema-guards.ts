/**
 * The guards of schema mapping: circles (a simple type derived from itself) and depth (derivation
 * chains, content models one inside another), so that hostile or generated schemas end in a
 * located diagnostic, never a stack overflow.
 */
import type { DiagnosticBag, SourceLocation } from "../diagnostics.js";
import type { QName } from "../parse/qname.js";
import { recovery } from "../recovery.js";
import { XS_ANYTYPE } from "./builtins.js";
import type { SimpleType, TypeRef } from "./model.js";

/** The longest derivation chain mapped (as XML_TOO_DEEP bounds element nesting). */
const MAX_DERIVATION_DEPTH = 256;
/** Content models mapped one inside another before the deeper ones are put off (see run). */
const MAX_CONTENT_DEPTH = 128;

/** Simple types being mapped: meeting one again means it is derived from itself. */
export class SimpleCircles {
  private readonly inProgress = new Set<TypeRef>();

  constructor(private readonly diagnostics: DiagnosticBag) {}

  /** Maps `st` with `map`, during which meeting `st` again closes a circle. */
  mapping(st: SimpleType, map: () => void): void {
    this.inProgress.add(st);
    try {
      map();
    } finally {
      this.inProgress.delete(st);
    }
  }

  /**
   * A mapped type met again; a simple one still being mapped closes a circle, said at its
   * declaration.
   */
  reached(t: TypeRef): TypeRef {
    if (t.kind === "simple" && this.inProgress.has(t)) {
      const n = t.name ? `{${t.name.ns}}${t.name.local}` : "an anonymous simple type";
      this.diagnostics.add(
        recovery(
          "XSD_CIRCULAR",
          `the simple type ${n} is derived from itself (by restriction or list); expected a base or item type that does not derive from it; where it refers to itself, reading it as xs:string`,
          t.loc,
        ),
      );
    }
    return t;
  }
}

/**
 * Bases being resolved, one inside another: the derivation chain mapped so far. A derivation chain
 * is mapped one base inside another, so its length is bounded (as element nesting is): a chain of
 * thousands would overflow the stack here or in the emitters, and its family unions grow with its
 * square.
 */
export class DerivationDepth {
  private depth = 0;

  constructor(private readonly diagnostics: DiagnosticBag) {}

  /** The base `name`, resolved by `resolve` one level deeper; past the bound, an error. */
  base(name: QName, at: SourceLocation, resolve: () => TypeRef): TypeRef {
    if (this.depth >= MAX_DERIVATION_DEPTH) {
      this.diagnostics.error(
        "XSD_TOO_DEEP",
        `the derivation chain reaching {${name.ns}}${name.local} is longer than ${MAX_DERIVATION_DEPTH} types; expected at most ${MAX_DERIVATION_DEPTH}`,
        at,
      );
      return XS_ANYTYPE;
    }
    this.depth++;
    try {
      return resolve();
    } finally {
      this.depth--;
    }
  }
}

/**
 * Content models being mapped, one inside another (a type's fields reaching a type not mapped
 * yet), and those put off.
 */
export class ContentDepth {
  private depth = 0;
  /** Content models put off (see run), in the order met. */
  private readonly deferred: (() => void)[] = [];

  /**
   * Maps a type's content now, or, past MAX_CONTENT_DEPTH types mapped one inside another, once
   * the outermost is done: a chain of thousands of named types (T0 holds a T1, which holds a T2, …)
   * would otherwise overflow the stack. A type is cached before its content is mapped (recursive
   * types rely on it), so putting the content off changes nothing but the order types are met in,
   * and only for schemas that deep; every type is complete when the outermost call returns.
   */
  run(content: () => void): void {
    if (this.depth >= MAX_CONTENT_DEPTH) {
      this.deferred.push(content);
      return;
    }
    const outermost = this.depth === 0;
    for (
      let next: (() => void) | undefined = content;
      next !== undefined;
      next = outermost ? this.deferred.shift() : undefined
    ) {
      this.depth++;
      try {
        next();
      } finally {
        this.depth--;
      }
    }
  }
}

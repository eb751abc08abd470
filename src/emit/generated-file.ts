/**
 * A generated file: code refers to symbols through `use()`, and the file prints its own import
 * lines (sorted, unused ones never printed, clashes aliased). No emitter writes an import line by
 * hand.
 */

import { cat, names, type Statement } from "./code.js";

export interface ImportSymbol {
  readonly name: string;
  /** The module specifier, e.g. `@wsdl-tsgen/runtime` or `./types.js`. */
  readonly from: string;
  /** Imported with `import type` when the file uses it only as a type. */
  readonly typeOnly: boolean;
}

export const symbol = (name: string, from: string, typeOnly = false): ImportSymbol => ({
  name,
  from,
  typeOnly,
});

export class GeneratedFile {
  private readonly imports = new Map<string, Map<string, { local: string; typeOnly: boolean }>>();
  private readonly taken = new Set<string>();
  /** Modules imported whole (`import type * as t`): their alias, and how the file uses them. */
  private readonly whole = new Map<string, { alias: string; used: boolean; typeOnly: boolean }>();

  constructor(
    /** Path relative to the output folder, e.g. `client.ts`. */
    readonly path: string,
    /** Names the file declares itself; imports are aliased around them. */
    declared: Iterable<string> = [],
  ) {
    for (const d of declared) this.taken.add(d);
  }

  /**
   * Has the file refer to every symbol of `from` through one namespace import, as `alias.Name`:
   * no symbol of it is then aliased around the file's own names. `alias` must not be one of them.
   */
  importWhole(from: string, alias: string): void {
    this.whole.set(from, { alias, used: false, typeOnly: true });
    this.taken.add(alias);
  }

  /** Records an import of `sym` and returns the name to write in code. */
  use(sym: ImportSymbol): string {
    const whole = this.whole.get(sym.from);
    if (whole) {
      whole.used = true;
      if (!sym.typeOnly) whole.typeOnly = false;
      return `${whole.alias}.${sym.name}`;
    }
    let byName = this.imports.get(sym.from);
    if (!byName) this.imports.set(sym.from, (byName = new Map()));
    const existing = byName.get(sym.name);
    if (existing) {
      if (!sym.typeOnly) existing.typeOnly = false;
      return existing.local;
    }
    let local = sym.name;
    for (let i = 1; this.taken.has(local); i++) local = `${sym.name}$${i}`;
    this.taken.add(local);
    byName.set(sym.name, { local, typeOnly: sym.typeOnly });
    return local;
  }

  /** Every name the file imports, with its module, in the order first used. */
  importedNames(): { name: string; from: string }[] {
    return [...this.imports].flatMap(([from, byName]) =>
      [...byName.keys()].map((name) => ({ name, from })),
    );
  }

  /** The import statements: package imports first, then relative ones, each sorted. */
  importStatements(): Statement[] {
    const wholeFroms = [...this.whole].filter(([, w]) => w.used).map(([from]) => from);
    const froms = [...this.imports.keys(), ...wholeFroms].sort((a, b) => {
      const ra = a.startsWith(".") ? 1 : 0;
      const rb = b.startsWith(".") ? 1 : 0;
      return ra - rb || (a < b ? -1 : a > b ? 1 : 0);
    });
    return froms.map((from) => {
      const whole = this.whole.get(from);
      if (whole)
        return {
          code: `import ${whole.typeOnly ? "type " : ""}* as ${whole.alias} from ${JSON.stringify(from)};`,
        };
      const entries = [...this.imports.get(from)!.entries()].sort(([a], [b]) =>
        a < b ? -1 : a > b ? 1 : 0,
      );
      const allTypes = entries.every(([, e]) => e.typeOnly);
      const specs = entries.map(([name, e]) => {
        const alias = e.local === name ? name : `${name} as ${e.local}`;
        return !allTypes && e.typeOnly ? `type ${alias}` : alias;
      });
      return {
        code: cat(
          `import ${allTypes ? "type " : ""}`,
          names(specs),
          ` from ${JSON.stringify(from)};`,
        ),
      };
    });
  }
}

/**
 * The options of `wsdl-tsgen generate`, defined once: the CLI flags are derived from this table
 * (and a config file will be validated against it), so a name exists in exactly one place.
 */
export interface OptionSpec {
  readonly flag: string;
  readonly description: string;
  readonly kind: "string" | "boolean";
  readonly default?: string | boolean;
}

export const GENERATE_OPTIONS = {
  out: { flag: "-o, --out <dir>", description: "output folder for the generated files", kind: "string" },
  runtimeImport: {
    flag: "--runtime-import <module>",
    description: "module generated code imports the runtime from",
    kind: "string",
    default: "wsdl-tsgen/runtime",
  },
  check: { flag: "--check", description: "write nothing; exit 1 when any output file would change", kind: "boolean", default: false },
  quiet: { flag: "-q, --quiet", description: "print only errors", kind: "boolean", default: false },
} as const satisfies Record<string, OptionSpec>;

type ValueOf<S extends OptionSpec> = S["kind"] extends "boolean" ? boolean : string;
export type GenerateCliOptions = { -readonly [K in keyof typeof GENERATE_OPTIONS]: ValueOf<(typeof GENERATE_OPTIONS)[K]> };

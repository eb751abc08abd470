/**
 * The options, defined once. From this table come the CLI flags of `generate`, the config file's
 * JSON Schema (`config.schema.json`) and its validation; a name exists in exactly one place.
 */

export interface OptionSpec {
  /** Commander flag syntax. */
  readonly flag: string;
  readonly description: string;
  /**
   * `map`: `key=value` pairs; `headers`: `Name: value` HTTP headers (both an object of strings in
   * the config file); `list`: comma-separated names, repeatable (an array of strings in the file).
   */
  readonly kind: "string" | "boolean" | "map" | "headers" | "list";
  /** `source`: per WSDL (config `sources[]` entries and CLI); `run`: CLI only. */
  readonly scope: "source" | "run";
  readonly default?: string | boolean;
  /** The values a string option may take. */
  readonly choices?: readonly string[];
}

export const OPTIONS = {
  wsdl: { flag: "", description: "WSDL file path or http(s) URL", kind: "string", scope: "source" },
  out: {
    flag: "-o, --out <dir>",
    description: "output folder for the generated files",
    kind: "string",
    scope: "source",
  },
  runtimeImport: {
    flag: "--runtime-import <module>",
    description: "module that generated code imports the runtime from",
    kind: "string",
    scope: "source",
    default: "@wsdl-tsgen/runtime",
  },
  namespaceNames: {
    flag: "--namespace-name <uri=NAME>",
    description:
      "pin the constant name of a namespace in descriptors.ts (as gSOAP's typemap pins prefixes); repeatable",
    kind: "map",
    scope: "source",
  },
  headers: {
    flag: "-H, --header <name: value>",
    description:
      "an HTTP header to send when fetching the WSDL and its imports from its host, e.g. -H 'Authorization: Bearer …' (repeatable; never sent to other hosts, nor from https to http). In the config file an object, whose values may name environment variables as ${NAME}. A user:password@ in the URL is sent as Basic authorization",
    kind: "headers",
    scope: "source",
  },
  auth: {
    flag: "--auth <scheme>",
    description:
      "authenticate when fetching the WSDL and its imports from its host: ntlm (NTLMv2), negotiate (Kerberos, with @wsdl-tsgen/negotiate installed) or basic, as --user with the password from the environment variable WSDL_TSGEN_PASSWORD (never an option, never in the config file)",
    kind: "string",
    scope: "source",
    choices: ["ntlm", "negotiate", "basic"],
  },
  user: {
    flag: "--user <name>",
    description: "the user --auth sends: DOMAIN\\name, name@REALM, or name with --domain",
    kind: "string",
    scope: "source",
  },
  domain: {
    flag: "--domain <domain>",
    description: "the Windows domain (or Kerberos realm) of --user, when the name does not hold it",
    kind: "string",
    scope: "source",
  },
  proxy: {
    flag: "--proxy <url>",
    description:
      "the HTTP proxy for fetching the WSDL, http://user:pass@host:port; default: HTTPS_PROXY, http_proxy, ALL_PROXY and NO_PROXY as curl reads them",
    kind: "string",
    scope: "source",
  },
  ca: {
    flag: "--ca <file>",
    description:
      "PEM file of the certificate authorities trusted for https WSDL URLs (a private CA)",
    kind: "string",
    scope: "source",
  },
  cert: {
    flag: "--cert <file>",
    description: "PEM file of the client certificate sent to https WSDL URLs (with --key)",
    kind: "string",
    scope: "source",
  },
  key: {
    flag: "--key <file>",
    description: "PEM file of the private key of --cert",
    kind: "string",
    scope: "source",
  },
  embedWsdl: {
    flag: "--no-embed-wsdl",
    description:
      'embed the WSDL text (wsdl.ts) for the server\'s ?WSDL; on by default. Off (--no-embed-wsdl, "embedWsdl": false): no wsdl.ts, and the handler serves ?WSDL only when its `wsdl` option holds the text',
    kind: "boolean",
    scope: "source",
    default: true,
  },
  docs: {
    flag: "--no-docs",
    description:
      'copy documentation from the WSDL and its schemas into JSDoc comments; on by default. Off (--no-docs, "docs": false): generated comments only',
    kind: "boolean",
    scope: "source",
    default: true,
  },
  format: {
    flag: "--format <formatter>",
    description:
      'reformat the written files with a formatter of your project: "prettier" runs the Prettier installed there, with its configuration (.prettierrc, .editorconfig). Default "none": the generator\'s own layout, byte for byte the same on every machine',
    kind: "string",
    scope: "source",
    default: "none",
    choices: ["none", "prettier"],
  },
  enumConstants: {
    flag: "--enum-constants",
    description:
      'declare a const object of each enumeration\'s values beside its union type (`Color.Red` for "Red"), as openapi-ts\'s enums: "javascript" does; off by default',
    kind: "boolean",
    scope: "source",
    default: false,
  },
  operations: {
    flag: "--operations <names>",
    description:
      "generate only these operations (WSDL operation names, comma-separated; repeatable) and the types they reach; in the config file an array of names. A name the WSDL does not have is an error",
    kind: "list",
    scope: "source",
  },
  strict: {
    flag: "--strict",
    description:
      "refuse defective or partly supported input: every recovery from a defect (a reference declared nowhere read as xs:anyType, an import that cannot be read, …) and every limitation (SOAP-encoded values that cannot be written as rpc/encoded peers expect, a binding neither SOAP nor HTTP, …) is an error instead of a warning, and the exit code is 1. SOAP encoding itself is supported and passes",
    kind: "boolean",
    scope: "source",
    default: false,
  },
  config: {
    flag: "-c, --config <file>",
    description: "config file (default: ./wsdl-tsgen.config.json when present)",
    kind: "string",
    scope: "run",
  },
  openapi: {
    flag: "--openapi <file>",
    description:
      "write only the OpenAPI 3.1 document of the WSDL's operations (JSON in and out, as the gateway scaffold serves them) to this file, not the TypeScript; --out is then not needed",
    kind: "string",
    scope: "run",
  },
  check: {
    flag: "--check",
    description: "write nothing; exit 1 when any output file would be added, changed or removed",
    kind: "boolean",
    scope: "run",
    default: false,
  },
  watch: {
    flag: "-w, --watch",
    description:
      "after generating, regenerate whenever the WSDL, a local document it imports or the config file changes, saying which; Ctrl-C stops (exit 0)",
    kind: "boolean",
    scope: "run",
    default: false,
  },
  quiet: {
    flag: "-q, --quiet",
    description: "print only errors",
    kind: "boolean",
    scope: "run",
    default: false,
  },
  verbose: {
    flag: "-v, --verbose",
    description: "print every file and warning",
    kind: "boolean",
    scope: "run",
    default: false,
  },
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;
/**
 * What a value of an option of kind `S["kind"]` is; a string option with choices is one of them.
 */
type ValueOf<S extends OptionSpec> = S extends OptionSpec
  ? S["kind"] extends "boolean"
    ? boolean
    : S["kind"] extends "map" | "headers"
      ? Record<string, string>
      : S["kind"] extends "list"
        ? readonly string[]
        : S extends { readonly choices: readonly (infer C)[] }
          ? C
          : string
  : never;
/** The value of option `K`, typed by its row of the table. */
export type OptionValue<K extends OptionName> = ValueOf<(typeof OPTIONS)[K]>;
type SourceKeys = {
  [K in OptionName]: (typeof OPTIONS)[K]["scope"] extends "source" ? K : never;
}[OptionName];

/** One entry of `sources` in the config file, also what the CLI builds from its flags. */
export type SourceOptions = { wsdl: string; out: string } & {
  [K in Exclude<SourceKeys, "wsdl" | "out">]?: OptionValue<K>;
};

export const CONFIG_FILE = "wsdl-tsgen.config.json";
export const isOptionName = (key: string): key is OptionName => Object.hasOwn(OPTIONS, key);
export const OPTION_NAMES: readonly OptionName[] = Object.keys(OPTIONS).filter(isOptionName);
export const SOURCE_KEYS = OPTION_NAMES.filter((k) => OPTIONS[k].scope === "source");

/** An object (not an array, not null), so its keys can be read. */
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The checks a value's kind (OptionSpec's `kind`) asks for; maps and headers are objects of
 * strings.
 */
export const KIND_CHECKS = {
  string: (v: unknown): v is string => typeof v === "string",
  boolean: (v: unknown): v is boolean => typeof v === "boolean",
  map: (v: unknown): v is Record<string, string> =>
    isRecord(v) && Object.values(v).every((x) => typeof x === "string"),
  headers: (v: unknown): v is Record<string, string> =>
    isRecord(v) && Object.values(v).every((x) => typeof x === "string"),
  list: (v: unknown): v is readonly string[] =>
    Array.isArray(v) && v.every((x) => typeof x === "string" && x !== ""),
} as const satisfies Record<OptionSpec["kind"], (v: unknown) => boolean>;

/** Whether `v` is of option `name`'s kind (not whether it is among its choices). */
export function isOfKind<K extends OptionName>(name: K, v: unknown): boolean {
  return KIND_CHECKS[OPTIONS[name].kind](v);
}

/** Whether `v` is among the choices of `spec`, when it has them. */
export function isChoice(spec: OptionSpec, v: unknown): boolean {
  return spec.choices === undefined || spec.choices.some((c) => c === v);
}

/**
 * Whether `v` is a value option `name` takes: of its kind, and among its choices if it has them.
 */
export function isOptionValue<K extends OptionName>(name: K, v: unknown): v is OptionValue<K> {
  return isOfKind(name, v) && isChoice(OPTIONS[name], v);
}

/**
 * The `scaffold` object of a config file, a project `wsdl-tsgen scaffold` wrote: each setting's
 * kind
 * (as OptionSpec's) and what it says. From this table come its JSON Schema and its validation.
 */
export const SCAFFOLD_SETTINGS = {
  mock: { kind: "boolean", description: "new methods return samples (--mock)" },
  gateway: {
    kind: "boolean",
    description:
      "a JSON/OpenAPI gateway over the service (--gateway): --update rewrites openapi.json",
  },
  templates: {
    kind: "string",
    description: "the templates folder (--templates), relative to this file",
  },
} as const satisfies Record<string, { kind: "boolean" | "string"; description: string }>;

export type ScaffoldKey = keyof typeof SCAFFOLD_SETTINGS;
/**
 * A scaffolded project's settings, which `scaffold --update` reads (paths relative to the file).
 */
export type ScaffoldSettings = {
  readonly [K in ScaffoldKey]?: (typeof SCAFFOLD_SETTINGS)[K]["kind"] extends "boolean"
    ? boolean
    : string;
};
export const isScaffoldKey = (key: string): key is ScaffoldKey =>
  Object.hasOwn(SCAFFOLD_SETTINGS, key);

/** The JSON Schema of the config file, derived from OPTIONS. */
export function configJsonSchema(): object {
  const properties: Record<string, object> = {};
  for (const k of SOURCE_KEYS) {
    const o: OptionSpec = OPTIONS[k];
    properties[k] =
      o.kind === "map" || o.kind === "headers"
        ? { type: "object", description: o.description, additionalProperties: { type: "string" } }
        : o.kind === "list"
          ? { type: "array", description: o.description, items: { type: "string", minLength: 1 } }
          : {
              type: o.kind,
              description: o.description,
              ...(o.default !== undefined ? { default: o.default } : {}),
              ...(o.choices ? { enum: o.choices } : {}),
            };
  }
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "wsdl-tsgen configuration",
    type: "object",
    additionalProperties: false,
    required: ["sources"],
    properties: {
      $schema: { type: "string" },
      scaffold: {
        type: "object",
        description:
          "a project `wsdl-tsgen scaffold` wrote: what `scaffold --update` renders new methods with",
        additionalProperties: false,
        properties: Object.fromEntries(
          Object.entries(SCAFFOLD_SETTINGS).map(([key, s]) => [
            key,
            { type: s.kind, description: s.description },
          ]),
        ),
      },
      sources: {
        type: "array",
        minItems: 1,
        items: {
          type: "object",
          additionalProperties: false,
          required: ["wsdl", "out"],
          properties,
        },
      },
    },
  };
}

/**
 * The nearest valid name, for "did you mean" hints (Levenshtein distance up to a third of its
 * length).
 */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const w = word.toLowerCase();
    const l = c.toLowerCase();
    // A prefix either way ("outDir" for "out") counts as close.
    const d = w.startsWith(l) || l.startsWith(w) ? 1 : distance(w, l);
    if (d < bestD) [best, bestD] = [c, d];
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}

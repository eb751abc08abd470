/**
 * Reads and validates `wsdl-tsgen.config.json` against OPTIONS; unknown keys are errors with a
 * hint. Below both its readers, the CLI and `scaffold --update`, so that neither imports the other.
 */
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { checkHeader } from "../parse/credentials.js";
import {
  isChoice,
  isOfKind,
  isOptionName,
  isOptionValue,
  isRecord,
  isScaffoldKey,
  KIND_CHECKS,
  nearest,
  OPTIONS,
  SCAFFOLD_SETTINGS,
  SOURCE_KEYS,
  type OptionSpec,
  type ScaffoldSettings,
  type SourceOptions,
} from "./options.js";

export type { ScaffoldSettings };

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

export interface LoadedConfig {
  readonly file: string;
  readonly sources: readonly SourceOptions[];
  readonly scaffold?: ScaffoldSettings;
}

const TOP_KEYS = ["sources", "$schema", "scaffold"];

/** The `scaffold` object: each key a row of SCAFFOLD_SETTINGS, of that row's kind. */
function scaffoldSettings(value: unknown, where: (p: string) => string): ScaffoldSettings {
  if (!isRecord(value))
    throw new ConfigError(where('"scaffold" must be an object { "mock": …, "templates": … }'));
  for (const [key, v] of Object.entries(value)) {
    if (!isScaffoldKey(key)) {
      const hint = nearest(key, Object.keys(SCAFFOLD_SETTINGS));
      throw new ConfigError(
        where(`scaffold: unknown key "${key}"${hint ? `; did you mean "${hint}"?` : ""}`),
      );
    }
    const type = SCAFFOLD_SETTINGS[key].kind;
    if (!KIND_CHECKS[type](v)) throw new ConfigError(where(`scaffold.${key} must be a ${type}`));
  }
  if (!isScaffoldSettings(value)) throw new Error("unreachable: every key was checked above");
  return value;
}

/** The type the checks above establish, said once more where TypeScript can see it. */
const isScaffoldSettings = (value: Record<string, unknown>): value is ScaffoldSettings =>
  Object.entries(value).every(
    ([key, v]) => isScaffoldKey(key) && KIND_CHECKS[SCAFFOLD_SETTINGS[key].kind](v),
  );

/**
 * A source whose every key is an option of the table with a value it takes, and wsdl and out set.
 */
const isSourceOptions = (entry: Record<string, unknown>): entry is SourceOptions =>
  typeof entry["wsdl"] === "string" &&
  typeof entry["out"] === "string" &&
  Object.entries(entry).every(
    ([key, v]) => isOptionName(key) && OPTIONS[key].scope === "source" && isOptionValue(key, v),
  );

/**
 * Validates parsed config JSON; `file` is for messages and for resolving relative paths. Header
 * values may name environment variables (`${NAME}`), read from `env`, so that secrets stay out of
 * the file.
 */
export function validateConfig(
  json: unknown,
  file: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): LoadedConfig {
  const where = (p: string) => `${file}: ${p}`;
  if (!isRecord(json))
    throw new ConfigError(where('expected a JSON object with a "sources" array'));
  for (const key of Object.keys(json)) {
    if (!TOP_KEYS.includes(key)) {
      const hint = nearest(key, TOP_KEYS);
      throw new ConfigError(
        where(`unknown key "${key}"${hint ? `; did you mean "${hint}"?` : ""}`),
      );
    }
  }
  const sources = json["sources"];
  if (!Array.isArray(sources) || sources.length === 0)
    throw new ConfigError(
      where('expected "sources": a non-empty array of { "wsdl": …, "out": … }'),
    );
  const base = path.dirname(file);
  const resolve = (p: string) =>
    /^https?:\/\//i.test(p) || path.isAbsolute(p) ? p : path.join(base, p);
  const outs = new Map<string, number>();
  const scaffold = json["scaffold"];
  return {
    file,
    ...(scaffold === undefined ? {} : { scaffold: scaffoldSettings(scaffold, where) }),
    sources: sources.map((s: unknown, i): SourceOptions => {
      const at = `sources[${i}]`;
      if (!isRecord(s)) throw new ConfigError(where(`${at} must be an object`));
      const entry = { ...s };
      for (const key of Object.keys(entry))
        checkSourceKey(key, entry[key], (p) => where(`${at}${p}`));
      const headers = entry["headers"];
      if (KIND_CHECKS.headers(headers))
        entry["headers"] = headersFrom(
          headers,
          env,
          (m) => new ConfigError(where(`${at}.headers: ${m}`)),
        );
      // Every key is checked above: what is left to fail is a missing wsdl or out.
      if (!isSourceOptions(entry)) throw new ConfigError(where(`${at} needs "wsdl" and "out"`));
      // Two sources writing one folder would each remove the other's files as stale.
      const out = resolve(entry.out);
      const earlier = outs.get(path.resolve(out));
      if (earlier !== undefined)
        throw new ConfigError(
          where(`${at}.out is sources[${earlier}].out's folder too; expected a folder of its own`),
        );
      outs.set(path.resolve(out), i);
      return { ...entry, wsdl: resolve(entry.wsdl), out };
    }),
  };
}

/** One key of a source: an option of the table, of its kind and among its choices. */
function checkSourceKey(key: string, v: unknown, where: (p: string) => string): void {
  if (!isOptionName(key) || OPTIONS[key].scope !== "source") {
    const hint = nearest(key, SOURCE_KEYS);
    throw new ConfigError(
      where(`: unknown option "${key}"${hint ? `; did you mean "${hint}"?` : ""}`),
    );
  }
  const spec: OptionSpec = OPTIONS[key];
  const object = spec.kind === "map" || spec.kind === "headers";
  const expected = object
    ? "an object of strings"
    : spec.kind === "list"
      ? "an array of non-empty strings"
      : `a ${spec.kind}`;
  if (!isOfKind(key, v)) throw new ConfigError(where(`.${key} must be ${expected}`));
  if (spec.choices && !isChoice(spec, v))
    throw new ConfigError(
      where(`.${key} must be one of ${spec.choices.map((c) => JSON.stringify(c)).join(", ")}`),
    );
}

/**
 * Header values with `${NAME}` replaced by the environment variable; an unset one, or an invalid
 * header, is an error.
 */
function headersFrom(
  headers: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
  error: (message: string) => Error,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    const value = raw.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, v: string) => {
      const set = env[v];
      if (set === undefined)
        throw error(`${name} names the environment variable ${v}, which is not set`);
      return set;
    });
    const wrong = checkHeader(name, value);
    if (wrong) throw error(wrong);
    out[name] = value;
  }
  return out;
}

export async function loadConfig(file: string): Promise<LoadedConfig> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    throw new ConfigError(`${file}: cannot read the config file`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(
      `${file}: not valid JSON (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  return validateConfig(json, file);
}

/** The starter file `wsdl-tsgen init` writes. */
export function starterConfig(wsdl = "./service.wsdl", out = "./src/generated/service"): string {
  return `${JSON.stringify({ $schema: "./node_modules/wsdl-tsgen/config.schema.json", sources: [{ wsdl, out }] }, null, 2)}\n`;
}

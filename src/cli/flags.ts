/**
 * The command line's flags, made from the OPTIONS table (src/config/options.ts): one Option per
 * row, with its parser and choices, for `generate` and the other commands that fetch a WSDL.
 */
import { Option, type Command } from "commander";
import { UsageError } from "../config/usage-error.js";
import { OPTIONS, type OptionName, type OptionSpec } from "../config/options.js";
import { parseHeader } from "../parse/credentials.js";

function collectMap(
  value: string,
  previous: Record<string, string> | undefined,
): Record<string, string> {
  const eq = value.lastIndexOf("=");
  if (eq <= 0) throw new UsageError(`--namespace-name expects uri=NAME, got '${value}'`);
  return { ...previous, [value.slice(0, eq)]: value.slice(eq + 1) };
}

function collectList(value: string, previous: readonly string[] | undefined): readonly string[] {
  const names = value.split(",").map((n) => n.trim());
  if (names.some((n) => n === ""))
    throw new UsageError(`expected names separated by commas, got '${value}'`);
  return [...(previous ?? []), ...names];
}

function collectHeader(
  value: string,
  previous: Record<string, string> | undefined,
): Record<string, string> {
  const h = parseHeader(value);
  if (typeof h === "string") throw new UsageError(`--header: ${h}`);
  return { ...previous, [h.name]: h.value };
}

/** The flag of an OPTIONS row, parsing its kind's values. */
export function optionOf(name: OptionName): Option {
  const spec: OptionSpec = OPTIONS[name];
  const o = new Option(spec.flag, spec.description);
  if (spec.kind === "map") o.argParser(collectMap);
  if (spec.kind === "headers") o.argParser(collectHeader);
  if (spec.kind === "list") o.argParser(collectList);
  if (spec.choices) o.choices(spec.choices);
  return o;
}

/** The network options, in the order --help lists them (src/config/network.ts reads them). */
export const NETWORK_KEYS = ["auth", "user", "domain", "proxy", "ca", "cert", "key"] as const;

/** `command` with the network options (for inspect, download, scaffold). */
export function networkOptions(command: Command): Command {
  for (const k of NETWORK_KEYS) command.addOption(optionOf(k));
  return command;
}

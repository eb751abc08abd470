/**
 * The network options (`--auth`, `--user`, `--domain`, `--proxy`, `--ca`, `--cert`, `--key`) on
 * the commands that fetch a WSDL; src/config/network.ts makes them the runtime's TransportOptions.
 */
import { Option, type Command } from "commander";
import { OPTIONS, type OptionSpec } from "../config/options.js";

/** The options of this file, in the order --help lists them. */
export const NETWORK_KEYS = ["auth", "user", "domain", "proxy", "ca", "cert", "key"] as const;

/** `command` with the network options of the OPTIONS table (for inspect, download, scaffold). */
export function networkOptions(command: Command): Command {
  for (const k of NETWORK_KEYS) {
    const spec: OptionSpec = OPTIONS[k];
    const o = new Option(spec.flag, spec.description);
    if (spec.choices) o.choices(spec.choices);
    command.addOption(o);
  }
  return command;
}

#!/usr/bin/env node
// Thin: parse argv, run, exit with the code the CLI returns (0 ok, 1 invalid input, 2 usage, 3 internal).
// One bundled module (scripts/bundle-cli.mjs): loading dist/ module by module took ~35 ms per run.
import { setFlagsFromString } from "node:v8";
import { CLI_ENGINE_FLAGS, main } from "../dist/cli/bundle.js";

setFlagsFromString(CLI_ENGINE_FLAGS);
process.exitCode = await main(process.argv.slice(2));

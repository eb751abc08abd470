#!/usr/bin/env node
// Thin: parse argv, run, exit with the code the CLI returns (0 ok, 1 invalid input, 2 usage, 3 internal).
import { main } from "../dist/cli/main.js";

process.exitCode = await main(process.argv.slice(2));

#!/usr/bin/env node
// Thin: parse argv, run, exit with the code the CLI returns (0 ok, 1 invalid input, 2 usage, 3 internal).
// One bundled module (scripts/bundle-cli.mjs): loading dist/ module by module took ~35 ms per run.
import { setFlagsFromString } from "node:v8";
import { main } from "../dist/cli/bundle.js";

// A generation is a short run: V8's default optimizes hot functions so early that on 2 cores the
// compiler competes with the work (2 MiB WSDL 0.38 s against 0.49 s; 8 MiB 0.95 against 1.05 s).
// The CLI's own process only: the library sets no engine flags in its host.
setFlagsFromString("--interrupt-budget=500000");
process.exitCode = await main(process.argv.slice(2));

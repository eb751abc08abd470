// Preloaded with --import by bench/scaffold.ts: registers a resolve hook that appends every module
// URL the process loads to the file named by BENCH_MODULE_LOG, so the bench can say what
// `generate` loads; with BENCH_PRELOAD=1 it also loads Handlebars and ts-morph first, as a
// generator that loaded them eagerly would.
import { register } from "node:module";

register("./module-log-hooks.mjs", import.meta.url);
if (process.env.BENCH_PRELOAD === "1") {
  await import("handlebars");
  await import("ts-morph");
}

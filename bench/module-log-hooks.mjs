// The hooks of bench/module-log.mjs (they run on Node's loader thread, which shares the env).
import { appendFileSync } from "node:fs";

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (process.env.BENCH_MODULE_LOG)
    appendFileSync(process.env.BENCH_MODULE_LOG, `${resolved.url}\n`);
  return resolved;
}

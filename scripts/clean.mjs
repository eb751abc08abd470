// Empties dist/ and runtime/dist/ before a build: a module moved or removed in the sources would
// otherwise stay in dist/, be packed, and be importable by what no longer should.
import { rmSync } from "node:fs";

for (const dir of ["dist", "runtime/dist", "negotiate/dist", "gateway/dist"])
  rmSync(dir, { recursive: true, force: true });

import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (p: string) => fileURLToPath(new URL(`./src/${p}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run generated code against the runtime's source, so that one copy of it is loaded.
    alias: [
      { find: /^wsdl-tsgen\/runtime$/, replacement: src("runtime/index.ts") },
      { find: /^wsdl-tsgen$/, replacement: src("index.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});

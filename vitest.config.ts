import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const file = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run generated code against the runtime's source, so that one copy of it is loaded.
    alias: [
      { find: /^@wsdl-tsgen\/runtime$/, replacement: file("./runtime/src/index.ts") },
      { find: /^@wsdl-tsgen\/runtime\/internal$/, replacement: file("./runtime/src/internal.ts") },
      { find: /^@wsdl-tsgen\/runtime\/wss$/, replacement: file("./runtime/src/wss/index.ts") },
      { find: /^@wsdl-tsgen\/negotiate$/, replacement: file("./negotiate/src/index.ts") },
      { find: /^@wsdl-tsgen\/gateway$/, replacement: file("./gateway/src/index.ts") },
      { find: /^wsdl-tsgen$/, replacement: file("./src/index.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    globalSetup: ["test/support/global-tmpdir.ts"],
  },
});

/** Shared by the message-service tests: temporary folders removed after each file, the seed, a request context. */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, vi } from "vitest";
import type { ApiService } from "../../generated-samples/message-service/index.js";
import { requestContext } from "../../runtime/src/index.js";
import type { SeedFile } from "../../examples/message-service/seed-file.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh temporary folder, removed after the test file. */
export function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "mrs-test-"));
  dirs.push(dir);
  return dir;
}

export const SEED_PATH = fileURLToPath(
  new URL("../../fixtures/message-service/asmx/seed.json", import.meta.url),
);
export const SEED = JSON.parse(readFileSync(SEED_PATH, "utf8")) as SeedFile;

export const ALICE = { email: "alice@example.com", password: "alice-pass" } as const;
export const BOB = { email: "bob@example.com", password: "bob-pass" } as const;

/** What the generated handler passes as the second argument; the service does not use it. */
export const CTX: Parameters<ApiService["getMessages"]>[1] = requestContext({
  remoteAddress: "127.0.0.1",
  port: "ApiSoap",
  operation: "test",
});

/** A message in the import format with every text field null. */
export const bare = (Id: number, DateArrived: string) => ({
  Id,
  DateArrived,
  Sender: null,
  MessageText: null,
  MessageUrl: null,
  Transcription: null,
});

export { login } from "../support/login.js";

/** A message whose text fields are empty, untrimmed or null, and whose date is a date alone. */
export const EDGE_MESSAGE = {
  ...bare(108, "2024-03-12"),
  Sender: "",
  MessageText: "  x\r\ny  ",
  Transcription: "",
};

/**
 * Runs a command line's `main` with `args`; gives its exit status and what it printed (console and
 * stream writes alike), trimmed.
 */
export async function runMain(
  main: (argv: readonly string[]) => Promise<number>,
  args: readonly string[],
): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const spies = [
    vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void out.push(a.join(" "))),
    vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void err.push(a.join(" "))),
    vi
      .spyOn(process.stdout, "write")
      .mockImplementation((chunk: string | Uint8Array) => out.push(String(chunk)) > 0),
    vi
      .spyOn(process.stderr, "write")
      .mockImplementation((chunk: string | Uint8Array) => err.push(String(chunk)) > 0),
  ];
  try {
    const code = await main(args);
    return { code, out: out.join("\n").trim(), err: err.join("\n").trim() };
  } finally {
    for (const s of spies) s.mockRestore();
  }
}

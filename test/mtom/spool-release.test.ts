/**
 * A spool whose directory cannot be removed when released stays among the live spools, so that
 * the exit hook removes it (runtime/src/mime/spool.ts).
 */
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { Spool } from "../../runtime/src/mime/spool.js";
import { spoolDir } from "../support/spool-dir.js";

/** Whether the next `rm` fails, as a busy or read-only file system would make it. */
const rmFails = vi.hoisted(() => ({ next: false }));
vi.mock("node:fs/promises", async (original) => {
  const fs = await original<typeof import("node:fs/promises")>();
  return {
    ...fs,
    rm: (...args: Parameters<typeof fs.rm>) => {
      if (!rmFails.next) return fs.rm(...args);
      rmFails.next = false;
      return Promise.reject(Object.assign(new Error("EBUSY: resource busy"), { code: "EBUSY" }));
    },
  };
});

spoolDir(true);

describe("Spool.release", () => {
  it("leaves a spool it failed to remove to the exit hook, which removes it", async () => {
    const before = new Set(process.listeners("exit"));
    const spool = new Spool();
    const { path, handle } = await spool.file();
    await handle.close();
    const hook = process.listeners("exit").find((l) => !before.has(l));
    expect(hook).toBeDefined();
    rmFails.next = true;
    await spool.release();
    expect(existsSync(path)).toBe(true);
    hook!.call(process, 0);
    expect(existsSync(dirname(path))).toBe(false);
  });

  it("is not used until it makes a file", async () => {
    const spool = new Spool();
    expect(spool.used).toBe(false);
    await (await spool.file()).handle.close();
    expect(spool.used).toBe(true);
    await spool.release();
  });
});

/**
 * A client's spooled files are removed when the result's Blobs are garbage-collected (the Blob
 * handed out, and each slice and unread stream of it, keep the file): a child process run with
 * --expose-gc says what is left after each step (test/mtom/peers/spool-gc.ts).
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { spoolDir } from "../support/spool-dir.js";

/** The run's TMPDIR, where tsx keeps its cache (the spool's directory is the test's own). */
const runTmp = process.env["TMPDIR"];
const tmp = spoolDir(true);

describe("spooled files and garbage collection", () => {
  it("removes a result's files once it is collected; a slice or a stream keeps them till then", () => {
    const r = spawnSync(
      process.execPath,
      ["--expose-gc", "--import", "tsx", "test/mtom/peers/spool-gc.ts"],
      { encoding: "utf8", env: { ...process.env, TMPDIR: runTmp, SPOOL_TMPDIR: tmp.path } },
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const steps = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { step: string; left: string[] } & Record<string, unknown>);
    const at = (step: string) => steps.find((s) => s.step === step)!;
    // Held: the spool's directory and its one file.
    expect(at("held").blob).toBe(true);
    expect(at("held").left).toHaveLength(2);
    expect(at("result dropped").left).toEqual([]);
    // The Blob collected, its slice and its unread stream still read the file.
    expect(at("blob dropped").blobCollected).toBe(true);
    expect(at("blob dropped").left).toHaveLength(2);
    expect(at("stream read")).toMatchObject({ read: 2 * 1024 * 1024 + 5, same: true });
    expect(at("stream read").slice).toEqual([7, 7, 7]);
    expect(at("slice dropped").left).toEqual([]);
  }, 120_000);
});

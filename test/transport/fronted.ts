/**
 * What the tests through Apache share: the Message Retrieval Service behind it, and the check that
 * a second round of calls went on the first round's authenticated connections.
 */
import * as path from "node:path";
import { expect } from "vitest";
import { startServer } from "../../examples/message-service/server.js";
import type { Apache } from "../support/apache.js";
import { tempDir } from "../support/tmp.js";
import { SEED_PATH } from "../message-service/helpers.js";

/** The Message Retrieval Service on a loopback port, seeded, in a folder of its own. */
export function startMessageService(): ReturnType<typeof startServer> {
  return startServer({
    port: 0,
    host: "127.0.0.1",
    dbPath: path.join(tempDir(), "m.db"),
    seedPath: SEED_PATH,
    log: () => {},
  });
}

/**
 * Runs `round` (20 calls in parallel) twice through `apache` and checks that the second went on
 * the first's authenticated connections, without a handshake; gives the first round's results.
 */
export async function expectKeptAlive<T>(apache: Apache, round: () => Promise<T>): Promise<T> {
  const before = apache.accessLog().length;
  const first = await round();
  const ok = (lines: string[]) => lines.filter((l) => l.split(" ")[1] === "200").length;
  const firstLines = await logged(apache, before, (lines) => ok(lines) >= 20);
  const again = await round();
  expect(again).toEqual(first);
  const secondLines = await logged(apache, before + firstLines.length, (l) => l.length >= 20);
  const clientPort = (l: string) => l.split(" ")[0]!;
  const opened = new Set(firstLines.map(clientPort));
  expect(opened.size).toBeLessThanOrEqual(20);
  expect(secondLines).toHaveLength(20);
  for (const line of secondLines) {
    expect(opened.has(clientPort(line))).toBe(true);
    expect(line.split(" ")[1]).toBe("200");
  }
  return first;
}

/**
 * The access log's lines from `from` once `enough` holds of them (or after 2 s): Apache writes a
 * request's line after its response has gone, so a client may read the log before it is there.
 */
export async function logged(
  apache: Apache,
  from: number,
  enough: (lines: string[]) => boolean,
): Promise<string[]> {
  for (let i = 0; i < 40; i++) {
    const lines = apache.accessLog().slice(from);
    if (enough(lines)) return lines;
    await new Promise((r) => setTimeout(r, 50));
  }
  return apache.accessLog().slice(from);
}

/**
 * `generate --watch`: regenerates when a file it read changes (the WSDL, its local imports, the
 * config file), saying which; stops cleanly when asked (Ctrl-C).
 */
import { watch, type FSWatcher } from "node:fs";
import * as path from "node:path";

/**
 * Watches what the first run read until SIGINT or SIGTERM, printing each change before its run.
 */
export async function watchGeneration(
  io: { stdout(text: string): void; stderr(text: string): void },
  read: readonly string[],
  generate: () => Promise<readonly string[]>,
): Promise<void> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGINT", onSignal).once("SIGTERM", onSignal);
  const watching = watchFiles(
    read,
    (changed) => {
      io.stdout(`changed: ${changed.map((f) => path.relative(".", f) || f).join(", ")}\n`);
      return generate();
    },
    stop.signal,
    (why) => io.stderr(`watch: ${why}\n`),
  );
  // Said once the folders are watched (watchFiles starts at once): a change made on reading it,
  // by a person or a script, is never missed.
  io.stdout(`watching ${read.length} file${read.length === 1 ? "" : "s"}; Ctrl-C stops\n`);
  await watching;
  process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
  io.stdout("stopped watching\n");
}

/** What a run of the generator read, to be watched: absolute local paths. */
export type Regenerate = (changed: readonly string[]) => Promise<readonly string[]>;

/**
 * Watches `files` (through their folders, since editors save by replacing a file) and calls
 * `regenerate` with the files changed, one run at a time, each burst of events (100 ms) one run.
 * Resolves when `stop` aborts; a folder that cannot be watched is said through `problem`.
 */
export function watchFiles(
  files: readonly string[],
  regenerate: Regenerate,
  stop: AbortSignal,
  problem: (why: string) => void,
): Promise<void> {
  let watched = new Set(files.map((f) => path.resolve(f)));
  const watchers = new Map<string, FSWatcher>();
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const follow = () => {
    const dirs = new Set([...watched].map((f) => path.dirname(f)));
    for (const [dir, w] of watchers) if (!dirs.has(dir)) (w.close(), watchers.delete(dir));
    for (const dir of dirs) if (!watchers.has(dir)) watchDir(dir);
  };
  const watchDir = (dir: string) => {
    let w: FSWatcher;
    try {
      w = watch(dir, (_event, name) => {
        const file = name === null ? undefined : path.join(dir, name.toString());
        if (file === undefined || !watched.has(file)) return;
        pending.add(file);
        clearTimeout(timer);
        timer = setTimeout(flush, 100);
      });
    } catch (e) {
      return problem(`cannot watch ${dir}: ${e instanceof Error ? e.message : String(e)}`);
    }
    w.on("error", (e) => problem(`stopped watching ${dir}: ${e.message}`));
    watchers.set(dir, w);
  };
  const flush = () => {
    const changed = [...pending].sort();
    pending.clear();
    running = running
      .then(async () => {
        if (stop.aborted) return;
        watched = new Set((await regenerate(changed)).map((f) => path.resolve(f)));
        follow();
      })
      .catch((e: unknown) => problem(e instanceof Error ? e.message : String(e)));
  };
  follow();
  return new Promise((resolve) => {
    const end = () => {
      clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      void running.then(resolve);
    };
    if (stop.aborted) end();
    else stop.addEventListener("abort", end, { once: true });
  });
}

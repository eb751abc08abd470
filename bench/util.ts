/** Small helpers for the benchmarks: statistics, formatting, and child processes spoken to over IPC. */
import { spawn, type ChildProcess } from "node:child_process";

export const median = (xs: readonly number[]): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export const fmt = (n: number, digits = 1): string => n.toFixed(digits);
export const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;
export const mib = (bytes: number): number => bytes / 1048576;
export const verdict = (ok: boolean): string => (ok ? "met" : "NOT met");

/** Throws with a loud message: a benchmark whose peers disagree must not print numbers as if all were well. */
export function fail(message: string): never {
  throw new Error(`BENCHMARK CHECK FAILED: ${message}`);
}

/** Runs `fn`, failing after `ms` milliseconds. */
export function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A bench worker (a TypeScript file run by tsx) in its own process, spoken to over IPC. Messages
 * the child sends are queued and taken in order with `next()`. The child is killed (by its pid) if
 * it outlives `stop()`.
 */
export class Worker {
  readonly child: ChildProcess;
  private readonly queue: unknown[] = [];
  private readonly waiting: { resolve: (m: unknown) => void; reject: (e: Error) => void }[] = [];
  private exitError: Error | undefined;
  readonly exited: Promise<number | null>;
  private stderr = "";

  constructor(
    readonly file: string,
    readonly args: readonly string[],
  ) {
    this.child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", file, ...args], {
      stdio: ["ignore", "inherit", "pipe", "ipc"],
      env: { ...process.env, TZ: "UTC" },
    });
    this.child.stderr!.on("data", (d: Buffer) => {
      this.stderr += d.toString();
      if (this.stderr.length > 20_000) this.stderr = this.stderr.slice(-20_000);
    });
    this.child.on("message", (m: unknown) => {
      const w = this.waiting.shift();
      if (w) w.resolve(m);
      else this.queue.push(m);
    });
    this.exited = new Promise((resolve) => {
      this.child.on("exit", (code, signal) => {
        if (code !== 0)
          this.exitError = new Error(
            `${file} ${args.join(" ")} exited with ${code ?? signal}\n${this.stderr.trim()}`,
          );
        else this.exitError = new Error(`${file} ${args.join(" ")} exited before answering`);
        for (const w of this.waiting.splice(0)) w.reject(this.exitError);
        resolve(code);
      });
    });
  }

  /** The next message from the child (rejects if it exits first or takes longer than `timeoutMs`). */
  next<T>(timeoutMs = 120_000): Promise<T> {
    if (this.queue.length > 0) return Promise.resolve(this.queue.shift() as T);
    if (this.exitError) return Promise.reject(this.exitError);
    const p = new Promise<T>((resolve, reject) =>
      this.waiting.push({ resolve: resolve as (m: unknown) => void, reject }),
    );
    return within(timeoutMs, `a message from ${this.file} ${this.args.join(" ")}`, p);
  }

  send(message: unknown): void {
    this.child.send(message as Parameters<ChildProcess["send"]>[0]);
  }

  /** Asks the child to stop, and kills it if it has not exited after a grace period. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      if (this.child.connected) this.child.disconnect();
      const timer = setTimeout(() => this.child.kill("SIGKILL"), 5_000);
      await this.exited;
      clearTimeout(timer);
    }
  }
}

/** In a worker: sends a message to the parent and resolves once it is written. */
export function reply(message: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!process.send)
      return reject(new Error("this worker must be started by bench/run.ts (no IPC channel)"));
    process.send(message as Parameters<NonNullable<typeof process.send>>[0], (err: Error | null) =>
      err ? reject(err) : resolve(),
    );
  });
}

/** In a worker: exits when the parent disconnects, so no child outlives the benchmark. */
export function exitWithParent(cleanup?: () => void): void {
  process.on("disconnect", () => {
    cleanup?.();
    process.exit(0);
  });
}

/** `global.gc` when the process was started with --expose-gc. */
export const gc: () => void = (globalThis as { gc?: () => void }).gc ?? (() => {});

/** A figure of a peer comparison: its label, how it is read off a round, and its unit. */
export type Figure<T> = readonly [label: string, of: (round: T) => number, unit: string];

/**
 * Runs `a` and `b` by `run` for `rounds` rounds each, alternating which goes first, and prints each
 * figure's medians and their ratio (a / b) as a table whose columns are `names`.
 */
export async function peerTable<T>(
  modes: readonly [a: string, b: string],
  names: readonly [a: string, b: string],
  rounds: number,
  run: (mode: string) => Promise<T>,
  figures: readonly Figure<T>[],
): Promise<void> {
  const got: [T[], T[]] = [[], []];
  for (let i = 0; i < rounds; i++)
    for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) got[k]!.push(await run(modes[k]!));
  console.log(`| figure | ${names[0]} | ${names[1]} | ${names[0]} / ${names[1]} |`);
  console.log("|---|---|---|---|");
  for (const [label, of, unit] of figures) {
    const [a, b] = [median(got[0].map(of)), median(got[1].map(of))];
    console.log(`| ${label} | ${fmt(a, 1)} ${unit} | ${fmt(b, 1)} ${unit} | ${ratio(a, b)} |`);
  }
}

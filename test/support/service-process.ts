/**
 * The Message Retrieval Service's `serve` command in a child process, as a user starts it: for the
 * tests that need a real one and for the attack scripts (which kill it as a power cut would).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";

export interface ServiceProcess {
  /** The service URL it printed, e.g. `http://127.0.0.1:40123/api.asmx`. */
  readonly url: string;
  readonly child: ChildProcessWithoutNullStreams;
  /** Everything it printed to stdout and stderr so far. */
  output(): string;
  /** What it wrote to stderr so far (its log). */
  log(): string;
  /** SIGKILL, as a power cut would stop it; resolves when it has exited. */
  kill(): Promise<void>;
  /** SIGTERM (SIGKILL after 5 s), and resolves when it has exited. */
  stop(): Promise<void>;
}

/** The services running, killed when this process exits so that none outlives it. */
const running = new Set<ChildProcessWithoutNullStreams>();
process.on("exit", () => {
  for (const c of running) c.kill("SIGKILL");
});

/**
 * Starts `cli.ts serve --port 0 …args` (or `script`'s serve) and resolves once it says where it
 * listens.
 */
export async function startServiceProcess(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  script = "examples/message-service/cli.ts",
): Promise<ServiceProcess> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", script, "serve", "--port", "0", ...args],
    { env },
  );
  running.add(child);
  let out = "";
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    out += d.toString();
    stderr += d.toString();
  });
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      running.delete(child);
      resolve();
    }),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  const kill = async () => {
    if (alive()) child.kill("SIGKILL");
    await exited;
  };
  const stop = async () => {
    if (alive()) child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const m = /listening on (http:\/\/\S+\/api\.asmx)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    return { url, child, output: () => out, log: () => stderr, kill, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

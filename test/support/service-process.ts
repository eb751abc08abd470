/**
 * The Message Retrieval Service's `serve` command in a child process, for tests that need a real
 * one.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";

export interface ServiceProcess {
  /** The service URL it printed, e.g. `http://127.0.0.1:40123/api.asmx`. */
  readonly url: string;
  /** Everything it printed to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, and resolves when it has exited. */
  stop(): Promise<void>;
}

/** Starts `cli.ts serve --port 0 …args` and resolves once it says where it listens. */
export async function startServiceProcess(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<ServiceProcess> {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ["--import", "tsx", "examples/message-service/cli.ts", "serve", "--port", "0", ...args],
    { env },
  );
  let out = "";
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
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
    return { url, output: () => out, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

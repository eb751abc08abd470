/** Small helpers for the benchmarks: medians, child processes that report JSON, formatting. */
import { spawn } from "node:child_process";

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Runs a bench worker (a TypeScript file) in its own process; resolves to the JSON it prints last. */
export function runWorker<T>(file: string, args: readonly string[], onMessage?: (child: import("node:child_process").ChildProcess) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", file, ...args], { stdio: ["ignore", "pipe", "inherit", "ipc"] });
    let out = "";
    child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    onMessage?.(child);
    child.on("exit", (code) => {
      const last = out.trim().split("\n").pop() ?? "";
      if (code !== 0) return reject(new Error(`${file} ${args.join(" ")} exited ${code}: ${out}`));
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`${file} ${args.join(" ")} printed no JSON result: ${out}`));
      }
    });
  });
}

export const fmt = (n: number, digits = 1): string => n.toFixed(digits);
export const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;

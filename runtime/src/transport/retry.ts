/**
 * Opt-in retries: a connection refused (the request never left) for any operation; a 503 with
 * Retry-After only for an operation the user says may be sent twice. Nothing else is retried: a
 * reset or a time-out may come after the service acted.
 */
import type { RetryOptions } from "./options.js";

/** Whether `e` (a fetch failure) is a refused connection. */
function refused(e: unknown): boolean {
  let c: unknown = e;
  for (let i = 0; i < 4 && c instanceof Error; i++) {
    if ((c as { code?: unknown }).code === "ECONNREFUSED") return true;
    c = c.cause;
  }
  return false;
}

/** The wait a Retry-After asks for, in ms (seconds or an HTTP date); undefined when absent. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", stop, { once: true });
  });
}

/**
 * `send()`, again after a refused connection or (when `twice` allows) a 503 with Retry-After,
 * at most `retry.retries` times, backing off. Without `retry`, once.
 */
export async function withRetries(
  retry: RetryOptions | undefined,
  twice: boolean,
  signal: AbortSignal | undefined,
  send: () => Promise<Response>,
): Promise<Response> {
  const retries = retry ? (retry.retries ?? 2) : 0;
  const base = retry?.backoffMs ?? 200;
  const max = retry?.maxDelayMs ?? 30_000;
  for (let attempt = 0; ; attempt++) {
    const backoff = Math.min(max, base * 2 ** attempt * (0.5 + Math.random() / 2));
    let res: Response;
    try {
      res = await send();
    } catch (e) {
      if (attempt >= retries || !refused(e)) throw e;
      await sleep(backoff, signal);
      continue;
    }
    const after = res.status === 503 ? retryAfterMs(res.headers.get("retry-after")) : undefined;
    if (attempt >= retries || !twice || after === undefined || after > max) return res;
    await res.body?.cancel();
    await sleep(Math.max(after, backoff), signal);
  }
}

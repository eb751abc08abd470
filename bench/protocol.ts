/**
 * What the bench processes tell each other over IPC (shared by parents and workers; no side
 * effects).
 */
import type { ClientKind, Summary } from "./clients.js";

/** bytes-server.ts → parent, once listening. */
export interface BytesServerReady {
  readonly port: number;
  readonly bytes: number;
  readonly sha256: string;
}

/** A decoded field that differs from the source data. */
export interface Mismatch {
  readonly field: string;
  readonly count: number;
  readonly example: string;
}

/** decode-worker.ts time → parent. */
export interface TimeReport {
  /** Interleaved calls, gc before each. */
  readonly times: Record<ClientKind, number[]>;
  /** Back-to-back calls per client, no forced gc. */
  readonly steady: Record<ClientKind, number[]>;
  readonly summaries: Record<ClientKind, Summary>;
  /** Fields whose decoded value differs from the source data, per client (empty when all agree). */
  readonly mismatches: Record<ClientKind, Mismatch[]>;
}

/** decode-worker.ts mem → parent. */
export interface MemReport {
  readonly kind: ClientKind;
  readonly maxRssBytes: number;
  readonly rssBeforeBytes: number;
  /** heapUsed + external after gc, with the result held, minus the same before the call. */
  readonly retainedHeapBytes: number;
  /**
   * Peak RSS of the process after REPEATED_CALLS calls in all, each result let go before the next
   * call.
   */
  readonly repeatedMaxRssBytes: number;
  readonly summary: Summary;
}

/**
 * Decode benchmark, memory: calls a client makes in its own process for the repeated-calls peak.
 */
export const REPEATED_CALLS = 6;

export type ServerKind = "ours" | "node-soap" | "bare" | "template";
/** How many messages every server answers GetMessages with. */
export const SERVER_MESSAGES = 100;
/** The seed of the servers' messages (the decode benchmark uses the default one). */
export const SERVER_SEED = 7;

/** server-worker.ts → parent, once listening. */
export interface ServerReady {
  readonly port: number;
}

/** server-worker.ts → parent, on "end": the measured window since "begin". */
export interface ServerUsage {
  readonly cpuMicros: number;
  readonly userMicros: number;
  readonly systemMicros: number;
  /** Minor page faults over the window: memory the kernel handed the process afresh. */
  readonly minorFaults: number;
  readonly requests: number;
  readonly elapsedMs: number;
}

/** The stages generate-stages.ts times, in the order they run. */
export const STAGES = ["parse", "model", "plan", "emit", "write"] as const;
export type Stage = (typeof STAGES)[number];

/** generate-stages.ts → parent: milliseconds per stage, one entry per round (round 1 cold). */
export interface StagesReport {
  readonly times: Record<Stage, number[]>;
}

/** Decode benchmark: untimed calls per client before the timed rounds. */
export const WARM_UP = 6;

/** What decode-wire.ts compares with `fetch` + `res.text()` alone (see there). */
export const WIRE_KINDS = ["fetch", "chunked", "whole", "node-soap"] as const;
export type WireKind = (typeof WIRE_KINDS)[number];

/** decode-wire.ts → parent. */
export interface WireReport {
  /** Interleaved calls, gc before each (ms). */
  readonly times: Record<WireKind, number[]>;
  /**
   * This process's CPU time per call (ms; the byte server's is not counted): steadier than the wall
   * time on a loaded host, where the other processes' turns stretch every call.
   */
  readonly cpu: Record<WireKind, number[]>;
  /** Messages (characters, for fetch) each kind got on its last call. */
  readonly counts: Record<WireKind, number>;
}

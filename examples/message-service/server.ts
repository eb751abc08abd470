/**
 * `startServer`: opens the store (seeding it if asked), and serves the generated handler on the
 * runtime's hardened `node:http` server (`createServer`: connection and time limits). Used by the
 * command line (cli.ts), the demo and the tests.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createApiHandler } from "../../generated-samples/message-service/index.js";
import {
  createServer,
  SERVER_DEFAULTS,
  type ServerHardening,
  type ServerMessageSecurity,
} from "@wsdl-tsgen/runtime";
import { AUTH_DEFAULTS, Authenticator, type AuthOptions } from "./auth.js";
import { readSeedFile } from "./seed-file.js";
import { createMessageService } from "./service.js";
import { isPostgresUrl, open, SQLITE_BUSY_TIMEOUT_MS, type MessageStore } from "./store.js";
import { guardStore } from "./store-guard.js";

/**
 * Connection and time limits (the runtime's, `createServer`'s) and the service's own; every one has
 * a default (SERVER_LIMITS).
 */
export interface ServerLimits extends Omit<ServerHardening, "maxBodyBytes" | "trustedProxies"> {
  /** scrypt runs at once; more wait, up to `maxQueuedKdf`, and beyond that get 503. */
  readonly maxConcurrentKdf?: number;
  /** Verifications waiting for a KDF slot at most. */
  readonly maxQueuedKdf?: number;
  /**
   * How long one database call a request makes may take, in milliseconds; then the request is
   * answered 503 with Retry-After.
   */
  readonly storeTimeoutMs?: number;
}

// The handler's own maxBodyBytes bounds bodies; the server's follows it.
const { maxBodyBytes: _, ...HTTP_LIMITS } = SERVER_DEFAULTS;

export const SERVER_LIMITS = {
  ...HTTP_LIMITS,
  maxConcurrentKdf: AUTH_DEFAULTS.maxConcurrentKdf,
  maxQueuedKdf: AUTH_DEFAULTS.maxQueuedKdf,
  storeTimeoutMs: 5_000,
} as const;

export interface ServerOptions {
  /** 0 picks a free port. */
  readonly port: number;
  readonly host: string;
  /** A SQLite file, or a `postgres://` URL. */
  readonly dbPath: string;
  /** A seed file (accounts and messages) loaded idempotently before serving. */
  readonly seedPath?: string;
  readonly limits?: ServerLimits;
  /** Cache and throttle settings (the KDF limits come from `limits`). */
  readonly auth?: AuthOptions;
  /** Balancers whose X-Forwarded-For names the client, for counting failed logins per address. */
  readonly trustedProxies?: readonly string[];
  /**
   * The URL clients reach the service at, written into ?WSDL and ?disco addresses; without it, the
   * request's Host header when `allowedHosts` lists it (by default only loopback names and the
   * address reached).
   */
  readonly publicUrl?: string;
  /** Host names the Host header may give for ?WSDL, ?disco and help pages (HandlerOptions). */
  readonly allowedHosts?: readonly string[];
  /** The ports served, e.g. `["ApiSoap", "ApiSoap12"]` without HTTP GET and POST. Default: all. */
  readonly bindings?: readonly string[];
  /** Where outages and throttling are said; `console.warn` by default. */
  readonly log?: (line: string) => void;
  /** Checks requests and secures responses: X.509 signatures with `x509Security` (wss.ts). */
  readonly security?: ServerMessageSecurity;
}

export interface RunningServer {
  /** The service URL, e.g. `http://127.0.0.1:8089/api.asmx`. */
  readonly url: string;
  /** Stops listening, drops open connections and closes the store; calling it again is harmless. */
  close(): Promise<void>;
}

function checkLimits(limits: Required<ServerLimits>): void {
  for (const [name, value] of Object.entries(limits)) {
    const least = name === "maxQueuedKdf" ? 0 : 1;
    if (!Number.isInteger(value) || value < least)
      throw new RangeError(`${name} must be an integer of at least ${least}, got ${value}`);
  }
}

/** The HTTP server with its limits, serving `store`. */
function httpServer(stored: MessageStore, limits: Required<ServerLimits>, options: ServerOptions) {
  const { maxConcurrentKdf, maxQueuedKdf, storeTimeoutMs, ...http } = limits;
  const log = options.log ?? ((line: string) => console.warn(line));
  const store = guardStore(stored, { timeoutMs: storeTimeoutMs, log });
  const authenticator = new Authenticator(store, {
    log,
    ...options.auth,
    maxConcurrentKdf,
    maxQueuedKdf,
  });
  const service = createMessageService(store, authenticator, {
    trustedProxies: options.trustedProxies ?? [],
  });
  const handler = createApiHandler(service, {
    requestTimeoutMs: limits.requestTimeoutMs,
    ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
    ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
    ...(options.bindings === undefined ? {} : { ports: options.bindings }),
    ...(options.security && { security: options.security }),
  });
  // The handler sends `100 Continue` itself, and only for a body it will read (not one over the
  // limit); the server refuses connections over the caps with 503.
  return createServer(handler, { ...http, trustedProxies: options.trustedProxies ?? [] });
}

function listen(server: Server, port: number, host: string) {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new RangeError(`the port must be an integer from 0 to 65535, got ${options.port}`);
  }
  const limits = { ...SERVER_LIMITS, ...options.limits };
  checkLimits(limits);
  // Read and check the seed before touching the database, so a bad file changes nothing.
  const seed = options.seedPath === undefined ? undefined : readSeedFile(options.seedPath);
  // SQLite waits for a lock on the event loop's thread: never longer than its own short default.
  const timeoutMs = isPostgresUrl(options.dbPath)
    ? limits.storeTimeoutMs
    : Math.min(limits.storeTimeoutMs, SQLITE_BUSY_TIMEOUT_MS);
  const store = await open(options.dbPath, { timeoutMs, ...(options.log && { log: options.log }) });
  let server: ReturnType<typeof httpServer>;
  try {
    // Inside: a bad option (an unknown binding, a public URL that is not one) closes the store.
    server = httpServer(store, limits, options);
    if (seed) await store.seed(seed);
    await listen(server, options.port, options.host);
  } catch (e) {
    await store.close();
    throw e;
  }
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}/api.asmx`,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        // Closing ends even when the store fails to close, saying why.
        const closed = (e: unknown) => console.error(`closing the store: ${(e as Error).message}`);
        server.close(() => void store.close().catch(closed).then(resolve));
        server.closeAllConnections();
      })),
  };
}

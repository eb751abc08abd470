/**
 * The agents the transport's connections come from: keep-alive, bounded in connect time, TLS
 * options applied, and, for an https target behind a proxy, through a CONNECT tunnel.
 */
import { Agent as HttpAgent, type Agent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from "node:tls";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { ClientRequestArgs } from "node:http";
import type { TlsOptions } from "./options.js";
import type { Proxy } from "./proxy.js";
import { tunnel } from "./tunnel.js";

export interface AgentInit {
  readonly https: boolean;
  /** The proxy to tunnel through (https targets only; http ones are sent to it as they are). */
  readonly proxy: Proxy | undefined;
  readonly tls: TlsOptions | undefined;
  readonly keepAlive: boolean;
  readonly connectTimeoutMs: number;
  /** 1 for a connection of its own (connection-bound authentication). */
  readonly maxSockets?: number;
}

type Callback = (err: Error | null, stream: Duplex) => void;

/** The error of a connection not made within `ms`, coded as the kernel's own time-out. */
function connectTimeout(ms: number): Error {
  return Object.assign(new Error(`no connection within ${ms} ms (connectTimeoutMs)`), {
    code: "ETIMEDOUT",
  });
}

/** Destroys `socket` unless `event` (its connection made) comes within `ms`. */
function bounded(socket: Socket, event: string, ms: number): Socket {
  if (!Number.isFinite(ms)) return socket;
  const timer = setTimeout(() => socket.destroy(connectTimeout(ms)), ms);
  timer.unref();
  socket.once(event, () => clearTimeout(timer));
  socket.once("close", () => clearTimeout(timer));
  return socket;
}

/**
 * The TLS options of `tls`, as tls.connect reads them; certificates are checked unless disabled.
 */
export function tlsOptions(tls: TlsOptions | undefined): ConnectionOptions {
  if (!tls) return {};
  const bytes = (v: string | Uint8Array) => (typeof v === "string" ? v : Buffer.from(v));
  return {
    ...(tls.ca !== undefined
      ? { ca: Array.isArray(tls.ca) ? tls.ca.map(bytes) : bytes(tls.ca as string | Uint8Array) }
      : {}),
    ...(tls.cert !== undefined ? { cert: bytes(tls.cert) } : {}),
    ...(tls.key !== undefined ? { key: bytes(tls.key) } : {}),
    ...(tls.pfx !== undefined ? { pfx: Buffer.from(tls.pfx) } : {}),
    ...(tls.passphrase !== undefined ? { passphrase: tls.passphrase } : {}),
    ...(tls.servername !== undefined ? { servername: tls.servername } : {}),
    rejectUnauthorized: tls.rejectUnauthorized !== false,
  };
}

/** A new agent as `init` says. */
export function createAgent(init: AgentInit): Agent {
  const options = {
    keepAlive: init.keepAlive,
    maxSockets: init.maxSockets ?? Infinity,
    ...(init.https ? tlsOptions(init.tls) : {}),
  };
  const ms = init.connectTimeoutMs;
  if (!init.https) {
    return new (class extends HttpAgent {
      override createConnection(opts: ClientRequestArgs, cb?: Callback): Duplex {
        return bounded(super.createConnection(opts, cb) as Socket, "connect", ms);
      }
    })(options);
  }
  const proxy = init.proxy;
  return new (class extends HttpsAgent {
    override createConnection(opts: ClientRequestArgs, cb?: Callback): Duplex | undefined {
      if (!proxy) return bounded(super.createConnection(opts, cb) as Socket, "secureConnect", ms);
      tunnelled(proxy, opts as ConnectionOptions, ms, cb!);
      return undefined;
    }
  })(options);
}

/** Opens TLS over a CONNECT tunnel through `proxy`, all of it within `ms`, and gives it to `cb`. */
function tunnelled(proxy: Proxy, opts: ConnectionOptions, ms: number, cb: Callback): void {
  let done = false;
  // Aborted at the time-out: the request to the proxy, or the TLS socket over it, is destroyed.
  const abandon = new AbortController();
  const finish = (err: Error | null, socket?: TLSSocket) => {
    if (done) return void socket?.destroy();
    done = true;
    clearTimeout(timer);
    cb(err, socket as Duplex);
  };
  const timer = setTimeout(
    () => {
      const error = connectTimeout(ms);
      abandon.abort(error);
      finish(error);
    },
    Number.isFinite(ms) ? ms : 2 ** 31 - 1,
  );
  timer.unref();
  const host = opts.host ?? "localhost";
  tunnel(proxy, host, Number(opts.port ?? 443), abandon.signal).then((raw) => {
    if (done) return void raw.destroy();
    const socket = tlsConnect({ ...opts, socket: raw, servername: opts.servername ?? host });
    abandon.signal.addEventListener("abort", () => socket.destroy(), { once: true });
    socket.once("secureConnect", () => finish(null, socket));
    socket.once("error", (e) => finish(e));
  }, finish);
}

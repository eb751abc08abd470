/** The CONNECT tunnel to an https target through a proxy, and the errors of a refusing proxy. */
import { request as httpRequest, type IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { offeredSchemes } from "./auth.js";
import { headerValues } from "./exchange.js";
import type { Proxy } from "./proxy.js";

/** A proxy that refused the request or the tunnel (a 407, a 403, a 502). */
export class ProxyError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "ProxyError";
  }
}

/**
 * Opens a CONNECT tunnel to `host:port` through `proxy`; rejects with a ProxyError on refusal,
 * and with the signal's reason (the request to the proxy destroyed) when it aborts first.
 */
export function tunnel(
  proxy: Proxy,
  host: string,
  port: number,
  signal: AbortSignal,
): Promise<Socket> {
  const authority = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: proxy.host,
      port: proxy.port,
      method: "CONNECT",
      path: authority,
      agent: false,
      headers: {
        Host: authority,
        ...(proxy.authorization ? { "Proxy-Authorization": proxy.authorization } : {}),
      },
    });
    req.once("connect", (res: IncomingMessage, socket: Socket) => {
      if (res.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(proxyRefusal(proxy, res, `the tunnel to ${authority}`));
    });
    // A proxy that answers CONNECT with a plain response (no tunnel) comes here.
    req.once("response", (res: IncomingMessage) => {
      res.resume();
      reject(proxyRefusal(proxy, res, `the tunnel to ${authority}`));
    });
    req.once("error", reject);
    signal.addEventListener("abort", () => req.destroy(signal.reason as Error), { once: true });
    req.end();
  });
}

/** The ProxyError of a proxy's refusal of `what`, naming the schemes it offers on a 407. */
export function proxyRefusal(proxy: Proxy, res: IncomingMessage, what: string): ProxyError {
  const status = res.statusCode ?? 0;
  const schemes = offeredSchemes(headerValues(res, "proxy-authenticate")).join(", ");
  const auth =
    status === 407
      ? proxy.authorization
        ? " (the proxy refused its credentials"
        : " (no proxy credentials were given"
      : "";
  const offers = status === 407 ? `; it offers ${schemes || "no scheme"})` : "";
  return new ProxyError(
    `the proxy ${proxy.shown} refused ${what}: ${status} ${res.statusMessage ?? ""}${auth}${offers}`.trim(),
    status,
  );
}

/**
 * The fetch a WSDL and its imports are read with: the runtime's transport when an option or the
 * environment needs it (authentication, TLS, a proxy for that URL), else the global fetch.
 * Authentication goes where the credentials of credentials.ts go (credentialsGo); proxy and TLS
 * apply to every document.
 */
import { clientFetch, type FetchLike } from "@wsdl-tsgen/runtime/internal";
import type { TransportOptions } from "@wsdl-tsgen/runtime";
import { credentialsGo } from "./credentials.js";

/** The fetch for the documents of the WSDL at `root`. */
export function documentFetch(root: string, transport: TransportOptions): FetchLike {
  const { auth, ...rest } = transport;
  const plain = clientFetch(rest, root);
  if (auth === undefined || !/^https?:\/\//i.test(root)) return plain;
  const authed = clientFetch(transport, root);
  const url = new URL(root);
  const home = { hostname: url.hostname, https: url.protocol === "https:" };
  return (u, init) => (credentialsGo(new URL(u), home) ? authed : plain)(u, init);
}

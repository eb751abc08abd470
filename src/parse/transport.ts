/**
 * The fetch a WSDL and its imports are read with: the runtime's transport when an option or the
 * environment needs it (authentication, a proxy, TLS), else the global fetch. Authentication goes
 * to the root URL's host only, and never from https down to http, as the credentials of
 * credentials.ts; proxy and TLS apply to every document.
 */
import { clientFetch, type FetchLike } from "@wsdl-tsgen/runtime/internal";
import type { TransportOptions } from "@wsdl-tsgen/runtime";

/** The fetch for the documents of the WSDL at `root`. */
export function documentFetch(root: string, transport: TransportOptions): FetchLike {
  const { auth, ...rest } = transport;
  const plain = clientFetch(rest, root);
  if (auth === undefined || !/^https?:\/\//i.test(root)) return plain;
  const authed = clientFetch(transport, root);
  const home = new URL(root);
  return (url, init) => {
    const u = new URL(url);
    const same =
      u.hostname === home.hostname && (home.protocol !== "https:" || u.protocol === "https:");
    return (same ? authed : plain)(url, init);
  };
}

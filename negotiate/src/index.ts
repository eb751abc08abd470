/**
 * `negotiate()`: HTTP Negotiate (SPNEGO, RFC 4559) for @wsdl-tsgen/runtime clients, Kerberos
 * through the system GSSAPI (the native `kerberos` binding), in a package of its own so that the
 * runtime keeps no dependency. NTLM (the runtime's `ntlm()`) is its fallback.
 */
import kerberos from "kerberos";
import { ntlm, type AuthHandshake, type HttpAuthentication } from "@wsdl-tsgen/runtime";
import { NegotiateError } from "./errors.js";
import { obtainTicket, principalOf } from "./ticket.js";

export { NegotiateError, type NegotiateFailure } from "./errors.js";

export interface NegotiateOptions {
  /** `DOMAIN\name`, `name@REALM`, or `name` with `domain`; without it, the credential cache's. */
  readonly username?: string;
  /** With `username`: a ticket is obtained with it, and NTLM falls back on it. */
  readonly password?: string;
  readonly domain?: string;
  /** The service, as `HTTP@host` or `HTTP/host`. Default: `HTTP@` and the URL's host name. */
  readonly spn?: string;
}

/**
 * Negotiate with Kerberos: from the credential cache (`kinit`, `KRB5CCNAME`), or with a username
 * and password, from a ticket obtained for them. When the server offers NTLM and not Negotiate,
 * and a password was given, the handshake is NTLMv2's.
 */
export function negotiate(options: NegotiateOptions = {}): HttpAuthentication {
  const { username, password, domain } = options;
  if (password !== undefined && username === undefined)
    throw new TypeError("negotiate(): a password goes with a username");
  let ccache: Promise<string> | undefined;
  const cache = (): Promise<string | undefined> => {
    if (username === undefined || password === undefined) return Promise.resolve(undefined);
    // A refused password is not remembered: the next call asks the KDC again.
    ccache ??= obtainTicket(principalOf(username, domain), password).catch((e: unknown) => {
      ccache = undefined;
      throw e;
    });
    return ccache;
  };
  const fallback =
    username !== undefined && password !== undefined
      ? ntlm({ username, password, ...(domain !== undefined ? { domain } : {}) })
      : undefined;
  return {
    scheme: "Negotiate",
    connectionBound: true,
    handshake: (url) => kerberosHandshake(serviceOf(url, options.spn), cache),
    fallback: (offered) => {
      const has = (s: string) => offered.some((o) => o.toLowerCase() === s);
      return has("ntlm") && !has("negotiate") ? fallback : undefined;
    },
  };
}

/** The GSSAPI host-based service name (`HTTP@host`) of `url`, or of `spn` when given. */
function serviceOf(url: URL, spn: string | undefined): string {
  if (spn !== undefined) return spn.replace("/", "@");
  return `HTTP@${url.hostname.replace(/^\[|\]$/g, "")}`;
}

function kerberosHandshake(
  service: string,
  cache: () => Promise<string | undefined>,
): AuthHandshake {
  let client: kerberos.KerberosClient | undefined;
  return {
    async step(challenge) {
      if (client !== undefined && challenge !== undefined)
        return `Negotiate ${await client.step(challenge)}`;
      const ccache = await cache();
      const [made, token] = await withCcache(ccache, async () => {
        const c = await kerberos.initializeClient(service, {
          mechOID: kerberos.GSS_MECH_OID_SPNEGO,
        });
        return [c, await c.step("")] as const;
      }).catch((e: unknown) => {
        throw new NegotiateError(
          `Negotiate with ${service}: no Kerberos ticket for it (run kinit, set KRB5CCNAME, or give negotiate({ username, password })): ${e instanceof Error ? e.message : String(e)}`,
          "no-ticket",
        );
      });
      client = made;
      return `Negotiate ${token}`;
    },
  };
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs `work` with KRB5CCNAME naming `ccache` (when given), one at a time: GSSAPI reads the cache
 * from the process's environment, which every handshake of the process shares.
 */
function withCcache<T>(ccache: string | undefined, work: () => Promise<T>): Promise<T> {
  const run = async () => {
    const before = process.env["KRB5CCNAME"];
    if (ccache !== undefined) process.env["KRB5CCNAME"] = ccache;
    try {
      return await work();
    } finally {
      if (before === undefined) delete process.env["KRB5CCNAME"];
      else process.env["KRB5CCNAME"] = before;
    }
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}

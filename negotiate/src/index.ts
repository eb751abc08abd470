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
  /**
   * Given with `username`, and only with it: a ticket is obtained with them, and NTLM falls back
   * on them.
   */
  readonly password?: string;
  readonly domain?: string;
  /** The service, as `HTTP@host` or `HTTP/host`. Default: `HTTP@` and the URL's host name. */
  readonly spn?: string;
}

/**
 * Negotiate with Kerberos: from the credential cache (`kinit`, `KRB5CCNAME`), or with a username
 * and password, from a ticket obtained for them. With a password, NTLMv2 is the fallback, as
 * Windows does it: inside Negotiate when there is no ticket to be had (no KDC for the realm), and
 * as NTLM when the server offers NTLM and not Negotiate.
 */
export function negotiate(options: NegotiateOptions = {}): HttpAuthentication {
  const { username, password, domain } = options;
  if (username === undefined && (password !== undefined || domain !== undefined))
    throw new TypeError(
      `negotiate(): a ${password !== undefined ? "password" : "domain"} goes with a username`,
    );
  // Without its password a username would be dropped for the cache's principal, unsaid.
  if (username !== undefined && password === undefined)
    throw new TypeError(
      "negotiate(): a username goes with a password; expected negotiate() for the credential cache's ticket",
    );
  const withPassword = username !== undefined && password !== undefined;
  let ccache: Promise<string> | undefined;
  const cache = (): Promise<string | undefined> => {
    if (!withPassword) return Promise.resolve(undefined);
    // A refused password is not remembered, so that the next call asks the KDC again; no KDC is.
    ccache ??= obtainTicket(principalOf(username, domain), password).catch((e: unknown) => {
      if (!(e instanceof NegotiateError && e.reason === "no-ticket")) ccache = undefined;
      throw e;
    });
    return ccache;
  };
  const fallback = withPassword
    ? ntlm({ username, password, ...(domain !== undefined ? { domain } : {}) })
    : undefined;
  return {
    scheme: "Negotiate",
    connectionBound: true,
    handshake: (url) => negotiateHandshake(url, serviceOf(url, options.spn), cache, fallback),
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

/**
 * Kerberos's token, and the server's answers to it; NTLM's messages under the Negotiate scheme
 * instead when there is no ticket and `fallback` can be used.
 */
function negotiateHandshake(
  url: URL,
  service: string,
  cache: () => Promise<string | undefined>,
  fallback: HttpAuthentication | undefined,
): AuthHandshake {
  let client: kerberos.KerberosClient | undefined;
  let inner: AuthHandshake | undefined;
  const rescheme = (value: string) => value.replace(/^NTLM /, "Negotiate ");
  return {
    async step(challenge) {
      if (challenge === undefined) [client, inner] = [undefined, undefined];
      if (inner) return rescheme(await inner.step(challenge));
      if (client && challenge !== undefined) return `Negotiate ${await client.step(challenge)}`;
      try {
        const [made, token] = await kerberosToken(service, cache);
        client = made;
        return `Negotiate ${token}`;
      } catch (e) {
        if (!(fallback && e instanceof NegotiateError && e.reason === "no-ticket")) throw e;
        inner = fallback.handshake(url);
        return rescheme(await inner.step(undefined));
      }
    },
  };
}

/** A GSSAPI client for `service` and its first token, from the cache `cache` gives. */
async function kerberosToken(
  service: string,
  cache: () => Promise<string | undefined>,
): Promise<readonly [kerberos.KerberosClient, string]> {
  const ccache = await cache();
  return withCcache(ccache, async () => {
    const c = await kerberos.initializeClient(service, { mechOID: kerberos.GSS_MECH_OID_SPNEGO });
    return [c, await c.step("")] as const;
  }).catch((e: unknown) => {
    throw new NegotiateError(
      `Negotiate with ${service}: no Kerberos ticket for it (run kinit, set KRB5CCNAME, or give negotiate({ username, password })): ${e instanceof Error ? e.message : String(e)}`,
      "no-ticket",
    );
  });
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

/**
 * HTTP authentication schemes the transport runs (RFC 7235): one interface for NTLM here, Basic,
 * and Negotiate in @wsdl-tsgen/negotiate, so that the transport knows none of them.
 */

/** One handshake: the Authorization values to send, each answering the server's last token. */
export interface AuthHandshake {
  /**
   * The next Authorization header value: `challenge` is the token of the server's
   * `WWW-Authenticate: <scheme> <token>` (undefined for the first message).
   */
  step(challenge: string | undefined): string | Promise<string>;
}

/**
 * What `ClientOptions.auth` takes: `ntlm(…)`, `basic(…)`, or `negotiate(…)` of
 * @wsdl-tsgen/negotiate.
 */
export interface HttpAuthentication {
  /** The scheme's name as in WWW-Authenticate, e.g. "NTLM". */
  readonly scheme: string;
  /**
   * Whether the handshake authenticates the connection rather than each request (NTLM, Negotiate
   * over IIS): its messages then go on one kept-alive connection, and later requests on it go
   * without the header until the server asks again.
   */
  readonly connectionBound: boolean;
  /** A new handshake with the server of `url`. */
  handshake(url: URL): AuthHandshake;
  /**
   * The scheme to use instead when the server's first 401 offers none of this one's (Negotiate
   * falling back to NTLM), or undefined to fail there.
   */
  fallback?(offered: readonly string[]): HttpAuthentication | undefined;
}

/** Credentials as users give them: `DOMAIN\name`, `name@REALM`, or `name` with `domain`. */
export interface Credentials {
  readonly username: string;
  readonly password: string;
  readonly domain?: string;
}

/** The user and domain of `DOMAIN\name`, `name@REALM` or `name` with `domain`. */
export function splitUser(username: string, domain?: string): { user: string; domain: string } {
  const slash = username.indexOf("\\");
  if (slash >= 0) return { domain: username.slice(0, slash), user: username.slice(slash + 1) };
  const at = username.lastIndexOf("@");
  if (at > 0 && domain === undefined)
    return { user: username.slice(0, at), domain: username.slice(at + 1) };
  return { user: username, domain: domain ?? "" };
}

/**
 * Basic authentication (RFC 7617), UTF-8, sent with every request. A `domain` is sent as IIS reads
 * it, `DOMAIN\name`, unless the username is written so already.
 */
export function basic(credentials: Credentials): HttpAuthentication {
  const { username, password, domain } = credentials;
  const name = domain && !username.includes("\\") ? `${domain}\\${username}` : username;
  const value = basicAuthorization(name, password);
  return {
    scheme: "Basic",
    connectionBound: false,
    handshake: () => ({ step: () => value }),
  };
}

/** The schemes a response's WWW-Authenticate (or Proxy-Authenticate) headers offer. */
export function offeredSchemes(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    // Challenges are comma-separated, and so are their parameters: a scheme is a token followed by
    // a space or the end, not by '='.
    for (const m of value.matchAll(
      /(?:^|,)\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?=\s+[^=,\s]|\s*(?:,|$))/g,
    ))
      if (!out.some((s) => s.toLowerCase() === m[1]!.toLowerCase())) out.push(m[1]!);
  }
  return out;
}

/** The token of `scheme`'s challenge among `values`, "" when it has none, undefined when absent. */
export function challengeToken(values: readonly string[], scheme: string): string | undefined {
  // Names are compared as strings: a scheme is a token, which may hold '+', '.' or '|'.
  const name = scheme.toLowerCase();
  for (const value of values)
    for (const challenge of value.split(",")) {
      const m = /^\s*(\S+)(?:\s+([A-Za-z0-9+/=]+))?\s*$/.exec(challenge);
      if (m && m[1]!.toLowerCase() === name) return m[2] ?? "";
    }
  return undefined;
}

/**
 * The Basic Authorization (or Proxy-Authorization) value of `user` and `password`, UTF-8: for
 * `basic()`, a proxy URL's credentials and an endpoint's `user:password@` alike.
 */
export function basicAuthorization(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, "utf8").toString("base64")}`;
}

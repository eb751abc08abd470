/**
 * Credentials for fetching a WSDL by URL: headers the user gives (`--header`, config `headers`) and
 * `user:password@` in the URL, which `fetch` refuses and which becomes Basic authorization. They go
 * to the root URL's host only (redirects and imports there included, never from https down to
 * http), as curl sends them without --location-trusted: an import from another host gets none.
 * The URL is used without its user and password everywhere else (messages, generated headers).
 */
import { takeUserinfo, withAuthorization } from "@wsdl-tsgen/runtime/internal";

export interface FetchAuth {
  /** The host the headers are for (a name or address, without the port). */
  readonly hostname: string;
  /** Whether the root was fetched over https: the headers then never go over http. */
  readonly https: boolean;
  readonly headers: Readonly<Record<string, string>>;
}

/** `s` as an http(s) URL, or undefined when it is a file path (or no valid URL). */
function httpUrl(s: string): URL | undefined {
  if (!/^https?:\/\//i.test(s)) return undefined;
  try {
    return new URL(s);
  } catch {
    return undefined;
  }
}

/** `location` without `user:password@`, when it is a URL that has them. */
export function withoutUserinfo(location: string): string {
  return takeUserinfo(location).url;
}

/**
 * What to send with requests for the document at `location` and its imports: `headers`, and Basic
 * authorization from the URL's user and password unless `headers` has an Authorization of its own.
 * Undefined for a file, or a URL with neither.
 */
export function fetchAuth(
  location: string,
  headers: Readonly<Record<string, string>> | undefined,
): FetchAuth | undefined {
  const url = httpUrl(location);
  if (url === undefined) return undefined;
  const all = withAuthorization(takeUserinfo(location).authorization, headers ?? {});
  if (Object.keys(all).length === 0) return undefined;
  return { hostname: url.hostname, https: url.protocol === "https:", headers: all };
}

/**
 * The headers to send with a request for `url`: the credentials when it is on their host, else
 * none.
 */
export function headersFor(
  url: string,
  auth: FetchAuth | undefined,
): Readonly<Record<string, string>> | undefined {
  const u = auth === undefined ? undefined : httpUrl(url);
  if (auth === undefined || u === undefined) return undefined;
  return credentialsGo(u, auth) ? auth.headers : undefined;
}

/**
 * Whether credentials for `home` go with a request for `url`: on its host, and never from https
 * down to http.
 */
export function credentialsGo(
  url: URL,
  home: { readonly hostname: string; readonly https: boolean },
): boolean {
  return url.hostname === home.hostname && (!home.https || url.protocol === "https:");
}

/** `Name: value` as a header, or a message saying what is wrong with it. */
export function parseHeader(text: string): { name: string; value: string } | string {
  const colon = text.indexOf(":");
  if (colon <= 0) return `expected 'Name: value', got '${text}'`;
  const name = text.slice(0, colon).trim();
  const value = text.slice(colon + 1).trim();
  return checkHeader(name, value) ?? { name, value };
}

/**
 * Why a header cannot be sent (a name that is no HTTP token, a line break in the value), or
 * undefined.
 */
export function checkHeader(name: string, value: string): string | undefined {
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
    return `'${name}' is not a valid HTTP header name`;
  if (/[\r\n\0]/.test(value)) return `the value of header ${name} holds a line break or NUL`;
  return undefined;
}

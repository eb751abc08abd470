import { basicAuthorization } from "../transport/auth.js";

/**
 * `user:password@` in an http(s) URL, which `fetch` refuses: taken out of the URL and sent as Basic
 * authorization instead, by the client (its endpoint) and the generator (a WSDL's URL) alike.
 */
export function takeUserinfo(location: string): {
  readonly url: string;
  readonly authorization: string | undefined;
} {
  let url: URL;
  try {
    if (!/^https?:\/\//i.test(location)) return { url: location, authorization: undefined };
    url = new URL(location);
  } catch {
    return { url: location, authorization: undefined };
  }
  if (url.username === "" && url.password === "")
    return { url: location, authorization: undefined };
  const authorization = basicAuthorization(
    decodeURIComponent(url.username),
    decodeURIComponent(url.password),
  );
  url.username = "";
  url.password = "";
  return { url: url.toString(), authorization };
}

/**
 * `headers` with `Authorization: authorization` added, unless there is none or they hold an
 * Authorization of their own (in any case).
 */
export function withAuthorization(
  authorization: string | undefined,
  headers: Readonly<Record<string, string>>,
): Record<string, string> {
  if (
    authorization === undefined ||
    Object.keys(headers).some((k) => k.toLowerCase() === "authorization")
  )
    return { ...headers };
  return { Authorization: authorization, ...headers };
}

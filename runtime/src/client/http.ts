/**
 * The client's HTTP GET and POST calls: the parameters encoded as the binding says, the response a
 * bare XML document of the operation's output element.
 */
import type { HttpOperationDesc } from "../descriptors/operations.js";
import { HttpBindingError, ResponseFormatError } from "../errors.js";
import { encodeHttpParams, replaceInLocation } from "../http/binding.js";
import { documentReader, type DocumentReader } from "../xml/reader.js";
import { XmlDecodeError } from "../xml/decode-options.js";
import type { Caller } from "./caller.js";
import type { CallOptions } from "./options.js";
import type { Received, Sent } from "./received.js";
import { picked } from "./result.js";

/**
 * Calls an HTTP GET or POST operation: its parameters in the query, the form or the location
 * (http:urlReplacement), the response's XML document decoded as it arrives; its answer gives the
 * result.
 */
export async function callHttp(
  caller: Caller,
  name: string,
  op: HttpOperationDesc,
  input: unknown,
  callOptions: CallOptions,
): Promise<Sent> {
  const { url, init } = httpRequest(caller, op, input);
  const reader = op.response ? documentReader([op.response.element]) : undefined;
  const res = await caller.send(name, url, init, callOptions, reader?.root);
  return { res, answer: () => httpAnswer(caller, op, res, reader, url) };
}

/**
 * The request of an HTTP GET or POST call: its parameters in the query, the form or the location
 * (http:urlReplacement).
 */
export function httpRequest(
  caller: Caller,
  op: HttpOperationDesc,
  input: unknown,
): { url: string; init: RequestInit } {
  let params = encodeHttpParams(op, input);
  let url = httpUrl(caller.endpoint, op.location);
  if (op.replace) {
    // http:urlReplacement: each parameter in place of its (name) in the location, and no query or
    // form.
    const values = params;
    const location = replaceInLocation(op.location, (name) => values.get(name) ?? "");
    url = httpUrl(caller.endpoint, location);
    params = new URLSearchParams();
  }
  if (caller.port.protocol === "httpGet")
    return { url: `${url}${params.size > 0 ? `?${params}` : ""}`, init: { method: "GET" } };
  return {
    url,
    init: {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: params.toString(),
    },
  };
}

/** The typed result of the response `res` to an HTTP call of `url`, decoded into `reader`. */
export function httpAnswer(
  caller: Caller,
  op: HttpOperationDesc,
  res: Received,
  reader: DocumentReader | undefined,
  url: string,
): unknown {
  if (res.status < 200 || res.status >= 300) throw new HttpBindingError(res.status, res.text);
  if (!op.response || !reader) return undefined;
  try {
    res.decode(reader.root, caller.decodeOptions());
    const { value } = reader.result();
    // A nil document element is a null result, read as the typed result admits it.
    if (value === null)
      return op.response.nil === "null" ? null : op.response.nil === "empty" ? [] : undefined;
    return picked(op.response, value, [], res);
  } catch (e) {
    if (e instanceof XmlDecodeError)
      throw new ResponseFormatError(
        `the response of ${url} is not the expected XML: ${e.message}`,
        res.status,
        res.text,
        e,
      );
    throw e;
  }
}

/**
 * The URL of an HTTP operation: its location after the address, as .NET and zeep join them, one
 * slash between (an address of /admin/1.3/ and a location of /Op give /admin/1.3/Op).
 */
const httpUrl = (endpoint: string, location: string): string =>
  location.startsWith("/") ? endpoint.replace(/\/+$/, "") + location : endpoint + location;

/**
 * What a gateway call's failure is answered with: an RFC 9457 problem (application/problem+json)
 * whose status says whose fault it was. A Client/Sender fault is the caller's (422 for a declared
 * fault, which is about the request's content; 400 otherwise). A Server/Receiver fault, an answer
 * that cannot be read, or one holding more binary bytes than the gateway answers with, is the
 * backend's (502), and a time-out 504. The gateway's own text never holds a stack trace; a backend
 * fault's string and detail are passed on as the backend sent them.
 */
import type { OperationDesc } from "../descriptors/operations.js";
import { AuthenticationError, SoapFault, TransportError } from "../errors.js";
import { JsonValueError } from "../json/json-scalars.js";
import { BinariesTooLargeError } from "./binaries.js";
import { fieldToJson } from "../json/json-values.js";

export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail?: string;
  readonly pointer?: string;
  readonly faultcode?: string;
  readonly faultstring?: string;
  readonly fault?: string;
  readonly faultDetail?: unknown;
}

/**
 * Every status other than success that `POST /{operation}` answers, and what each means: the
 * OpenAPI document (src/emit/openapi) lists these, so that it says what this gateway does.
 */
export const OPERATION_FAILURES = {
  "400": "the request is invalid (JSON that does not fit the schema, or a Client/Sender fault)",
  "401": "the request's Basic credentials are malformed, or the service refused the credentials",
  "413": "the request body is larger than the gateway takes",
  "415": "the request body is not JSON (Content-Type: application/json)",
  "422": "a Client/Sender fault about the request's content",
  "500": "the gateway failed",
  "502":
    "the service failed (a Server/Receiver fault, or an answer that could not be read), or answered more bytes of binaries than the gateway gives as base64 (its maxBinaryBytes)",
  "504": "the service did not answer in time",
} as const;

/** A problem with no more than a status and what went wrong. */
export const problem = (status: number, title: string, detail?: string): Problem => ({
  type: "about:blank",
  title,
  status,
  ...(detail === undefined ? {} : { detail }),
});

/** A fault code's local name: `soap:Client` → `Client`, `soap12:Sender` → `Sender`. */
const localCode = (code: string): string => code.slice(code.lastIndexOf(":") + 1).split(".")[0]!;

/** The problem a SOAP fault from the backend is answered with, its declared detail decoded. */
export function faultProblem(op: OperationDesc, fault: SoapFault): Problem {
  const declared = op.kind === "soap" ? op.faults?.find((f) => fault instanceof f.type) : undefined;
  const code = localCode(fault.code);
  const caller = code === "Client" || code === "Sender";
  const status = caller ? (declared ? 422 : 400) : 502;
  const detail = declared ? fieldToJson(declared.element, declared.detailOf(fault)) : fault.detail;
  return {
    type: "about:blank",
    title: caller ? "The service refused the request" : "The service failed",
    status,
    detail: fault.message,
    faultcode: fault.code,
    faultstring: fault.message,
    ...(declared ? { fault: declared.name } : {}),
    ...(detail === undefined ? {} : { faultDetail: detail }),
  };
}

/** The problem any failure of a call is answered with. */
export function failureProblem(op: OperationDesc, e: unknown): Problem {
  if (e instanceof JsonValueError)
    return {
      ...problem(400, "The request does not fit the schema", e.message),
      pointer: e.pointer,
    };
  if (e instanceof SoapFault) return faultProblem(op, e);
  // The backend answered, but more than the gateway gives as JSON: the gateway's answer is bad.
  if (e instanceof BinariesTooLargeError)
    return problem(502, "The service's answer is too large to give as JSON", e.message);
  if (e instanceof AuthenticationError)
    return problem(401, "The service refused the credentials", `HTTP ${e.status}`);
  if (e instanceof TransportError) {
    const timedOut = e.cause instanceof Error && e.cause.name === "TimeoutError";
    return timedOut
      ? problem(504, "The service did not answer in time")
      : problem(502, "The service could not be reached");
  }
  if (e instanceof TypeError || e instanceof RangeError)
    return problem(400, "The request could not be written as the service expects", e.message);
  return problem(502, "The service's answer could not be read");
}

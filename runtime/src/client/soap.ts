/**
 * The client's SOAP 1.1 and 1.2 calls: the request envelope written (with its declared and
 * undeclared header entries, secured and packaged as the options ask), the response envelope
 * decoded, its fault checked and thrown as the operation's typed fault when it declares one.
 */
import { andThen } from "../support/maybe-async.js";
import type { SoapOperationDesc } from "../descriptors/operations.js";
import { HttpBindingError, ResponseFormatError, SoapFault, type SoapVersion } from "../errors.js";
import {
  bodyXml,
  envelope,
  envelopeReader,
  faultFromNode,
  headerXml,
  type DecodedEnvelope,
  type EnvelopeReader,
  type StreamedBody,
} from "../soap/envelope.js";
import { securityHeaderXml } from "../soap/ws-security.js";
import { securing } from "../soap/message-security.js";
import { writeMtom } from "../mime/xop.js";
import { decodeDocument } from "../xml/reader.js";
import { clark } from "../support/xml-node.js";
import { ownValue } from "../support/own-props.js";
import { writeNode } from "../xml/write-tree.js";
import { withXsiTypes } from "../xml/xsi-types.js";
import type { Caller } from "./caller.js";
import {
  checkedFault,
  checkAnswer,
  faultInit,
  faultThrown,
  type FaultCheck,
} from "./fault-check.js";
import type { CallOptions } from "./options.js";
import { packagedRequest, swaRequest, withResponseAttachments } from "./packaged.js";
import type { Received, Sent } from "./received.js";
import { picked, withBodyExtras } from "./result.js";

/** `CallOptions.onSoapHeaders`, as the client calls it with the headers it decoded. */
type OnSoapHeaders = (headers: Record<string, unknown>) => void;

/**
 * Calls a SOAP operation: its envelope POSTed (packaged as MTOM or SwA when the options or the
 * operation ask), the response's envelope decoded as it arrives; its answer gives the result or
 * throws the fault (checked when the client verifies).
 */
export async function callSoap(
  caller: Caller,
  name: string,
  op: SoapOperationDesc,
  input: unknown,
  callOptions: CallOptions,
): Promise<Sent> {
  const version = soapVersion(caller);
  const reader = responseReader(caller, op);
  const request = await soapRequest(caller, name, op, input, callOptions, version);
  const res = await caller.send(name, caller.endpoint, request, callOptions, reader.root);
  return { res, answer: () => soapAnswer(caller, op, res, reader, version, callOptions) };
}

export const soapVersion = (caller: Caller): SoapVersion =>
  caller.port.protocol === "soap12" ? "1.2" : "1.1";

/**
 * What reads the response envelope of `op`; `streamed`, when given, reads its body element in
 * place of the operation's (a streamed result: client/stream.ts).
 */
export function responseReader(
  caller: Caller,
  op: SoapOperationDesc,
  streamed?: StreamedBody,
): EnvelopeReader {
  return envelopeReader(
    (ns, local) =>
      op.response && op.response.element.ns === ns && op.response.element.name === local
        ? (streamed ?? op.response.parts ?? op.response.element)
        : undefined,
    caller.decodeOptions(),
    caller.headerType,
  );
}

/**
 * The typed result of a SOAP response `res` decoded into `reader`: its fault thrown (checked when
 * the client verifies), its headers given to `onSoapHeaders`, its attachments in place.
 */
export function soapAnswer(
  caller: Caller,
  op: SoapOperationDesc,
  res: Received,
  reader: EnvelopeReader,
  version: SoapVersion,
  callOptions: CallOptions,
): unknown {
  if (op.oneWay && res.blank && res.status < 300) return undefined;
  if (res.blank) {
    if (res.status >= 300) throw new HttpBindingError(res.status, res.text);
    if (!op.response) return undefined;
    throw new ResponseFormatError(
      `the response to ${caller.port.name} has an empty body; expected a SOAP envelope`,
      res.status,
      res.text,
    );
  }
  const decoded = decodeSoap(caller, res, reader, version);
  // A fault is given signed or not, marked verified or not (see fault-check.ts); the headers of
  // one whose signature failed are no more to be trusted than its body.
  const checked = checkAnswer(caller.options.security, !!decoded.fault, res, version);
  const answer = (faultCheck: FaultCheck): unknown => {
    const onHeaders = callOptions.onSoapHeaders as OnSoapHeaders | undefined;
    if (!faultCheck.refusal) onHeaders?.(decoded.headers);
    return withResponseAttachments(op, soapResult(op, decoded, res, faultCheck), res);
  };
  // A check of spooled parts reads them first: nothing is given before it ends.
  return andThen(checked, answer);
}

/** The POST of a SOAP call: its envelope, with declared and undeclared header entries. */
export function soapRequest(
  caller: Caller,
  name: string,
  op: SoapOperationDesc,
  input: unknown,
  callOptions: CallOptions,
  version: SoapVersion,
): RequestInit | Promise<RequestInit> {
  const elementValue =
    op.request?.prop !== undefined
      ? input === undefined || input === null
        ? undefined
        : ownValue(input as Record<string, unknown>, op.request.prop)
      : input;
  const soapHeaders =
    callOptions.soapHeaders === undefined
      ? caller.options.soapHeaders
      : { ...caller.options.soapHeaders, ...callOptions.soapHeaders };
  const extra = caller.options.extraSoapHeaders;
  // Header entries the WSDL does not declare come first: WS-Security, then the application's own.
  const undeclared =
    (caller.options.wsSecurity ? securityHeaderXml(caller.options.wsSecurity) : "") +
    (typeof extra === "function"
      ? extra({
          operation: name,
          action: op.action,
          endpoint: caller.endpoint,
          soapVersion: version,
        })
      : (extra ?? ""));
  const write = () =>
    envelope(
      version,
      withXsiTypes(caller.options.xsiType === "always", () => bodyXml(op.request, elementValue)),
      undeclared +
        headerXml(
          caller.headerType,
          op.headers,
          soapHeaders as Readonly<Record<string, unknown>> | undefined,
        ),
    );
  const mtom = caller.mtom;
  const secure = securing(caller.options.security, caller.options.security?.secureRequest, version);
  if (op.attachments)
    return swaRequest(name, op.attachments, op.action, version, input, write, secure);
  const pkg = mtom && writeMtom(mtom, version, op.action, write, secure);
  if (pkg) return andThen(pkg, (p) => packagedRequest(p, version, op.action));
  const headers: Record<string, string> =
    version === "1.1"
      ? { "Content-Type": "text/xml; charset=utf-8", SOAPAction: `"${op.action ?? ""}"` }
      : {
          "Content-Type": `application/soap+xml; charset=utf-8${op.action !== undefined ? `; action="${op.action}"` : ""}`,
        };
  return andThen(secure(write()), (body): RequestInit => ({ method: "POST", headers, body }));
}

/** The envelope of a non-empty response; an HTTP error or ResponseFormatError when it is none. */
function decodeSoap(
  caller: Caller,
  res: Received,
  reader: EnvelopeReader,
  version: SoapVersion,
): DecodedEnvelope {
  try {
    res.decode(reader.root, caller.decodeOptions());
    return reader.result();
  } catch (e) {
    if (res.status >= 300) throw new HttpBindingError(res.status, res.text);
    throw new ResponseFormatError(
      `the response is not a valid SOAP ${version} message: ${(e as Error).message}`,
      res.status,
      res.text,
      e,
    );
  }
}

/** A decoded SOAP response's typed result: its fault thrown, else its value and what it kept. */
function soapResult(
  op: SoapOperationDesc,
  decoded: DecodedEnvelope,
  res: Received,
  check: FaultCheck = {},
): unknown {
  if (decoded.fault) {
    const received = faultFromNode(decoded.fault, decoded.version, res.status);
    if (typeof received === "string")
      throw new ResponseFormatError(
        `the response's SOAP ${decoded.version} Fault ${received}; expected a fault code and a reason`,
        res.status,
        res.text,
      );
    const fault = checkedFault(received, check);
    throw faultThrown(typedFault(op, fault) ?? fault, check);
  }
  if (res.status >= 300) throw new HttpBindingError(res.status, res.text);
  if (!op.response) return withBodyExtras(undefined, decoded.undescribed, res);
  if (!decoded.body?.field) {
    const got = decoded.body ? clark(decoded.body.ns, decoded.body.local) : "an empty Body";
    const expected = clark(op.response.element.ns, op.response.element.name);
    throw new ResponseFormatError(
      `the response holds ${got}; expected ${expected}`,
      res.status,
      res.text,
    );
  }
  return picked(op.response, decoded.body.value, decoded.undescribed, res);
}

/**
 * A declared fault's generated class, with its detail decoded, when the detail holds its element.
 */
function typedFault(op: SoapOperationDesc, fault: SoapFault): SoapFault | undefined {
  const detail = fault.detail;
  if (!op.faults?.length || typeof detail !== "object") return undefined;
  for (const child of detail.children) {
    if (typeof child === "string") continue;
    const desc = op.faults.find((f) => f.element.ns === child.ns && f.element.name === child.local);
    if (!desc) continue;
    try {
      const out: string[] = [];
      writeNode(out, child, "");
      const { value } = decodeDocument(out.join(""), [desc.element]);
      return desc.create(faultInit(fault), value);
    } catch (e) {
      // Given untyped, saying why: the caller that catches the declared class would miss it.
      const detailError = e instanceof Error ? e : new Error(String(e));
      return new SoapFault({ ...faultInit(fault), detailError });
    }
  }
  return undefined;
}

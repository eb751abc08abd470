/**
 * A fault received by a client whose `security` verifies answers. As WCF and WSS4J do, a signed
 * fault is verified; unlike them, an unsigned one is still given as the fault it is (most services
 * never sign theirs), marked `verified: false`. A fault whose signature is there but fails (a
 * changed fault, a certificate not trusted, an expired Timestamp) rejects the call with the
 * `SecurityRefusal`, as WCF's MessageSecurityException does, the fault as its `cause`.
 */
import type { SoapFaultInit, SoapVersion } from "../errors.js";
import { SoapFault } from "../errors.js";
import {
  SecurityRefusal,
  type CheckedFault,
  type ClientMessageSecurity,
  type MessageParts,
} from "../soap/message-security.js";
import { isThenable } from "../support/maybe-async.js";

export interface FaultCheck extends CheckedFault {
  readonly refusal?: SecurityRefusal;
}

const UNSIGNED: FaultCheck = Object.freeze({});

/** What the client's security says of the fault envelope `xml` (read only when it checks). */
function checkFault(
  security: ClientMessageSecurity | undefined,
  xml: () => string,
  version: SoapVersion,
  parts?: MessageParts,
): FaultCheck | Promise<FaultCheck> {
  if (!security?.checkFault) return UNSIGNED;
  const refused = (e: unknown): FaultCheck => {
    if (e instanceof SecurityRefusal) return { refusal: e };
    throw e;
  };
  try {
    const checked = security.checkFault(xml(), version, parts);
    return isThenable(checked) ? Promise.resolve(checked).catch(refused) : checked;
  } catch (e) {
    return refused(e);
  }
}

/**
 * The client's security check of an answer: of a fault, what checkFault found; of a result, its
 * signature checked (a refusal thrown). A promise when the check reads spooled parts.
 */
export function checkAnswer(
  security: ClientMessageSecurity | undefined,
  fault: boolean,
  res: { readonly text: string; readonly parts?: MessageParts | undefined },
  version: SoapVersion,
): FaultCheck | Promise<FaultCheck> {
  if (fault) return checkFault(security, () => res.text, version, res.parts);
  const checked = security?.checkResponse?.(res.text, version, res.parts);
  return isThenable(checked) ? Promise.resolve(checked).then(() => UNSIGNED) : UNSIGNED;
}

/** The fault marked as `check` found it. */
export function checkedFault(fault: SoapFault, check: FaultCheck): SoapFault {
  if (!check.signer) return fault;
  return new SoapFault({ ...faultInit(fault), signer: check.signer });
}

/** What to throw for the (typed) fault: the fault, or the refusal of its signature. */
export function faultThrown(fault: SoapFault, check: FaultCheck): Error {
  const r = check.refusal;
  return r
    ? new SecurityRefusal(`the fault's signature failed: ${r.message}`, r.reason, { cause: fault })
    : fault;
}

/** The init that makes a fault like `fault` (a typed one from a plain one, say). */
export function faultInit(fault: SoapFault): SoapFaultInit {
  return {
    code: fault.code,
    message: fault.message,
    ...(fault.detail !== undefined ? { detail: fault.detail } : {}),
    ...(fault.httpStatus !== undefined ? { httpStatus: fault.httpStatus } : {}),
    ...(fault.soapVersion ? { soapVersion: fault.soapVersion } : {}),
    ...(fault.signer ? { signer: fault.signer } : {}),
  };
}

/** Whether a client sends MTOM: its `mtom` option, else its port's WSDL policy. */
import type { PortDesc } from "../descriptors/operations.js";
import type { MtomPolicy } from "../mime/xop.js";
import type { ClientMessageSecurity } from "../soap/message-security.js";

/** WCF's rule: binaries under 1 KiB cost less as base64 text than as parts of their own. */
export const DEFAULT_MTOM_THRESHOLD = 1024;

/**
 * The MTOM policy of a client's SOAP requests, undefined when they are sent as plain envelopes;
 * refused beside a `security` that cannot sign attachment parts, whose signature would cover the
 * envelope as written, not its attachments. (x509Security signs them.)
 */
export function mtomPolicy(
  option: boolean | { readonly threshold?: number } | undefined,
  port: PortDesc,
  security?: ClientMessageSecurity,
): MtomPolicy | undefined {
  const on = option ?? (port.mtom === true && port.protocol.startsWith("soap"));
  if (on === false) return undefined;
  if (security && security.securesAttachments !== true)
    throw new Error(
      "this security signs the envelope as written, not the attachment parts an MTOM package moves out of it; expected one of security and mtom (mtom: false, where the WSDL's policy asks for MTOM), or security that signs them (x509Security)",
    );
  const threshold = on === true ? DEFAULT_MTOM_THRESHOLD : (on.threshold ?? DEFAULT_MTOM_THRESHOLD);
  if (!(threshold >= 0))
    throw new Error(
      `the mtom threshold ${threshold} is not a size; expected a number of bytes ≥ 0`,
    );
  return { threshold };
}

/** Whether a client sends MTOM: its `mtom` option, else its port's WSDL policy. */
import type { PortDesc } from "../descriptors/operations.js";
import type { MtomPolicy } from "../mime/xop.js";

/** WCF's rule: binaries under 1 KiB cost less as base64 text than as parts of their own. */
export const DEFAULT_MTOM_THRESHOLD = 1024;

/** The MTOM policy of a client's SOAP requests, undefined when they are sent as plain envelopes. */
export function mtomPolicy(
  option: boolean | { readonly threshold?: number } | undefined,
  port: PortDesc,
): MtomPolicy | undefined {
  const on = option ?? (port.mtom === true && port.protocol.startsWith("soap"));
  if (on === false) return undefined;
  const threshold = on === true ? DEFAULT_MTOM_THRESHOLD : (on.threshold ?? DEFAULT_MTOM_THRESHOLD);
  if (!(threshold >= 0))
    throw new Error(
      `the mtom threshold ${threshold} is not a size; expected a number of bytes ≥ 0`,
    );
  return { threshold };
}

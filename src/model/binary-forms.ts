/**
 * Where a WSDL's binaries may travel as attachment parts, and so be given as Blobs when large and
 * sent from Blobs or streams: where a port's policy asks for MTOM or an operation declares SOAP
 * with Attachments parts. The runtime's `spoolsBinaries` reads its descriptors by the same rule.
 */
import type { WsdlModel } from "./model.js";

const memo = new WeakMap<WsdlModel, boolean>();

/** Whether `model`'s base64Binary values are `Uint8Array | Blob` (see the file's comment). */
export function binaryParts(model: WsdlModel): boolean {
  let v = memo.get(model);
  if (v === undefined) {
    v = model.services.some(
      (s) =>
        s.ports.some((p) => p.binding.mtom === true) ||
        s.operations.some((o) => o.attachments !== undefined),
    );
    memo.set(model, v);
  }
  return v;
}

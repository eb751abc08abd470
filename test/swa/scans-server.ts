/**
 * The scans fixture service (fixtures/swa, SOAP with Attachments) as a test server on loopback:
 * an in-memory archive of scans whose StoreScan and FetchScan the SwA tests call.
 */
import { bytesOf } from "../support/binary.js";
import {
  createScansHandler,
  type ScansHandlerOptions,
  type ScansService,
} from "../../generated-samples/swa/index.js";
import { SoapFault } from "../../runtime/src/index.js";
import { listen } from "../support/loopback.js";

export interface StoredScan {
  readonly title: string;
  readonly pages: number;
  readonly scan: Uint8Array;
}

export interface ScansServer {
  readonly url: string;
  readonly store: Map<string, StoredScan>;
  close(): Promise<void>;
}

/** The implementation over `store`: ids are s1, s2, … in order; a thumbnail is a scan's head. */
export function scansService(store: Map<string, StoredScan>): ScansService {
  return {
    // A large scan comes as a Blob of a temporary file, removed after the answer: read it now.
    async storeScan(input) {
      const id = `s${store.size + 1}`;
      const scan = await bytesOf(input.scan);
      store.set(id, { title: input.Title, pages: input.Pages, scan });
      return { Id: id, Size: scan.byteLength };
    },
    fetchScan(input) {
      const s = store.get(input.Id);
      if (!s) throw new SoapFault({ code: "Client", message: `no scan ${input.Id}` });
      return { Title: s.title, Pages: s.pages, scan: s.scan, thumbnail: s.scan.subarray(0, 16) };
    },
  };
}

export async function startScans(options: ScansHandlerOptions = {}): Promise<ScansServer> {
  const store = new Map<string, StoredScan>();
  const lo = await listen(createScansHandler(scansService(store), options));
  return { url: `${lo.url}/scans`, store, close: () => lo.close() };
}

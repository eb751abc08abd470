/**
 * The documents fixture service (fixtures/documents) as a test server on loopback: an in-memory
 * archive whose upload, download and list the MTOM tests and judges call.
 */
import { bytesOf } from "../support/binary.js";
import {
  createDocumentsHandler,
  type DocumentsHandlerOptions,
  type DocumentsService,
} from "../../generated-samples/documents/index.js";
import { SoapFault } from "../../runtime/src/index.js";
import { listen } from "../support/loopback.js";

export interface StoredDocument {
  readonly id: string;
  readonly name: string;
  readonly mediaType: string;
  readonly content: Uint8Array;
}

export interface DocumentsServer {
  readonly url: string;
  readonly store: Map<string, StoredDocument>;
  close(): Promise<void>;
}

const CREATED = "2026-11-27T12:00:00Z";

/** The implementation over `store`: ids are d1, d2, … in upload order. */
export function documentsService(store: Map<string, StoredDocument>): DocumentsService {
  const info = (d: StoredDocument) => ({
    Id: d.id,
    Name: d.name,
    MediaType: d.mediaType,
    Size: d.content.byteLength,
    Created: CREATED,
  });
  return {
    // A large content comes as a Blob of a temporary file, removed after the answer: read it now.
    async upload(input) {
      const d = {
        id: `d${store.size + 1}`,
        name: input.Name,
        mediaType: input.MediaType,
        content: new Uint8Array(await bytesOf(input.Content)),
      };
      store.set(d.id, d);
      return info(d);
    },
    download(input) {
      const d = store.get(input.Id);
      if (!d) throw new SoapFault({ code: "Client", message: `no document ${input.Id}` });
      return { Info: info(d), Content: d.content };
    },
    list(input) {
      return [...store.values()].map((d) => ({
        Info: info(d),
        Content: input.WithContent ? d.content : new Uint8Array(0),
      }));
    },
  };
}

/** Listens on loopback port 0. */
export async function startDocuments(
  options: DocumentsHandlerOptions = {},
  store = new Map<string, StoredDocument>(),
): Promise<DocumentsServer> {
  const lb = await listen(createDocumentsHandler(documentsService(store), options));
  return { url: `${lb.url}/documents`, store, close: () => lb.close() };
}

/** A service that only counts an upload's bytes (a Blob's size, or the bytes'). */
export function sizeCounting(): { readonly impl: DocumentsService; received(): number } {
  const info = { Id: "d1", Name: "n", MediaType: "m", Size: 0, Created: CREATED };
  let received = 0;
  const impl: DocumentsService = {
    upload: async (input) => {
      const c = input.Content;
      received = c instanceof Blob ? c.size : c.byteLength;
      return info;
    },
    download: () => ({ Info: info, Content: new Uint8Array(0) }),
    list: () => [],
  };
  return { impl, received: () => received };
}

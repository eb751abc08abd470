/**
 * SOAP with Attachments (WS-I Attachments Profile 1.0): an envelope sent as the root part of a
 * multipart/related package, each attachment part of the operation a MIME part beside it whose
 * Content-ID is `<partname=uniqueid@host>` (R2933). Bytes go as the caller's, read as views.
 */
import { randomUUID } from "node:crypto";
import type { AttachmentDesc } from "../descriptors/operations.js";
import { quoted } from "./headers.js";
import { MultipartError, writeMultipart, type BodyPart } from "./multipart.js";
import type { MtomBody } from "./xop.js";

/**
 * The attachment parts of `value` that `descs` name, in order; a part that is no `Uint8Array` is a
 * TypeError (a value the WSDL describes is never dropped).
 */
export function attachmentValues(
  descs: readonly AttachmentDesc[],
  value: unknown,
  what: string,
): Uint8Array[] {
  return descs.map((d) => {
    const v =
      value !== null && typeof value === "object" && Object.hasOwn(value, d.part)
        ? (value as Record<string, unknown>)[d.part]
        : undefined;
    if (v instanceof Uint8Array) return v;
    throw new TypeError(`${what}'s attachment part ${d.part} is not a Uint8Array`);
  });
}

/** The envelope `xml` packaged with its attachment parts, `bytes[i]` being `descs[i]`'s. */
export function writeSwa(
  soapVersion: "1.1" | "1.2",
  action: string | undefined,
  xml: string,
  descs: readonly AttachmentDesc[],
  bytes: readonly Uint8Array[],
): MtomBody {
  const tag = `${randomUUID()}@wsdl-tsgen`;
  const soapType = soapVersion === "1.1" ? "text/xml" : "application/soap+xml";
  const actionParam =
    soapVersion === "1.2" && action !== undefined ? `; action=${quoted(action)}` : "";
  const rootId = `root.${tag}`;
  const body = writeMultipart([
    {
      headers: headers(`${soapType}; charset=UTF-8${actionParam}`, rootId),
      content: Buffer.from(xml, "utf8"),
    },
    ...descs.map((d, i) => ({
      headers: headers(d.type, `${d.part}=${i}.${tag}`),
      content: bytes[i]!,
    })),
  ]);
  const contentType =
    `multipart/related; type=${quoted(soapType)}; boundary=${quoted(body.boundary)}; ` +
    `start="<${rootId}>"${actionParam}`;
  return { contentType, body, xml };
}

const headers = (type: string, id: string): string[] => [
  `Content-Type: ${type}`,
  "Content-Transfer-Encoding: binary",
  `Content-ID: <${id}>`,
];

/**
 * The attachment parts `descs` name, read from a package's parts by their Content-ID's
 * `partname=` prefix (R2933); a part missing, or named by two parts, is a MultipartError.
 */
export function readSwa(
  parts: ReadonlyMap<string, BodyPart>,
  descs: readonly AttachmentDesc[],
): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  for (const d of descs) {
    const found = [...parts.values()].filter((p) => p.id.startsWith(`${d.part}=`));
    if (found.length === 0)
      throw new MultipartError(
        `no part has a Content-ID <${d.part}=…> for the attachment part ${d.part}`,
        "missing-part",
      );
    if (found.length > 1)
      throw new MultipartError(
        `two parts have a Content-ID <${d.part}=…> for the attachment part ${d.part}`,
        "duplicate-part",
      );
    out[d.part] = found[0]!.content;
  }
  return out;
}

/**
 * The sample messages of the help pages. A sample is a typed value built from the descriptors
 * (descriptors/sample-values.ts, which also gives `sampleInput` and `sampleOutput`) and written by
 * the writer
 * the server uses (`bodyXml`, `envelope`, `writeElement`, `encodeHttpParams`), so it is a message
 * the server would accept or send. Each scalar holds a stand-in value that tells its type apart;
 * the page shows the type name in its place (`string`, `int`, `dateTime`), keeping the value in a
 * `data-value` attribute.
 */
import type { SoapVersion } from "../../errors.js";
import { encodeHttpParams } from "../../http/binding.js";
import type { HttpOperationDesc, SoapOperationDesc } from "../../descriptors/operations.js";
import { bodySample, elementSample, httpInputSample } from "../../descriptors/sample-values.js";
import { bodyXml, envelope } from "../../soap/envelope.js";
import { writeElement } from "../../xml/writer.js";
import { XSD_NS, XSI_NS } from "../../xml/namespaces.js";
import { pathBase } from "../routes.js";

/** One sample message: an HTTP request or response, head and body as text. */
export interface SampleMessage {
  readonly head: string;
  readonly body: string;
}

/** The request and response of one operation over one port. */
export interface Sample {
  readonly request: SampleMessage;
  readonly response: SampleMessage | undefined;
}

const LENGTH = "Content-Length: length";

/**
 * The sample exchange of a SOAP operation (the body of a multi-part message: one value per part).
 */
export function soapSample(
  version: SoapVersion,
  path: string,
  host: string,
  op: SoapOperationDesc,
): Sample {
  const type = version === "1.1" ? "text/xml" : "application/soap+xml";
  const action = op.action ?? "";
  const ct =
    version === "1.1"
      ? `Content-Type: ${type}; charset=utf-8\n${LENGTH}\nSOAPAction: "${action}"`
      : `Content-Type: ${type}; charset=utf-8${action ? `; action="${action}"` : ""}\n${LENGTH}`;
  const body = (b: SoapOperationDesc["request"]) =>
    indentXml(envelope(version, b ? bodyXml(b, bodySample(b)) : ""));
  return {
    request: { head: `POST ${path} HTTP/1.1\nHost: ${host}\n${ct}`, body: body(op.request) },
    response: op.oneWay
      ? undefined
      : { head: `HTTP/1.1 200 OK\n${ct.split("\nSOAPAction")[0]}`, body: body(op.response) },
  };
}

/** The sample exchange of an HTTP GET or POST operation at `base` (the port's path). */
export function httpSample(
  verb: "GET" | "POST",
  base: string,
  host: string,
  op: HttpOperationDesc,
): Sample {
  const params = encodeHttpParams(op, httpInputSample(op)).toString();
  const url = pathBase(base) + op.location;
  const request =
    verb === "GET"
      ? { head: `GET ${url}${params ? `?${params}` : ""} HTTP/1.1\nHost: ${host}`, body: "" }
      : {
          head: `POST ${url} HTTP/1.1\nHost: ${host}\nContent-Type: application/x-www-form-urlencoded\n${LENGTH}`,
          body: params,
        };
  let response: SampleMessage = { head: "HTTP/1.1 200 OK", body: "" };
  if (op.response && !op.response.void) {
    const el = op.response.element;
    const out: string[] = ['<?xml version="1.0" encoding="utf-8"?>'];
    const extra = ` xmlns:xsd="${XSD_NS}" xmlns:xsi="${XSI_NS}"`;
    writeElement(out, el.name, el.ns, "", el.type, elementSample(el), true, el.prop, extra);
    response = {
      head: `HTTP/1.1 200 OK\nContent-Type: text/xml; charset=utf-8\n${LENGTH}`,
      body: indentXml(out.join("")),
    };
  }
  return {
    request,
    response,
  };
}

/**
 * Written XML laid out one element a line, for reading: white space goes only between two tags
 * with nothing between them, so no text changes. The writer escapes `>` in text and attribute
 * values, so every `>` ends a tag.
 */
export function indentXml(xml: string): string {
  const parts = xml.split(/(<[^>]*>)/).filter((p) => p !== "");
  let depth = 0;
  let out = "";
  let prevTag = false;
  for (const p of parts) {
    const tag = p.startsWith("<");
    const closing = p.startsWith("</");
    if (closing) depth--;
    if (tag && prevTag && out !== "") out += "\n" + "  ".repeat(Math.max(depth, 0));
    out += p;
    if (tag && !closing && !p.endsWith("/>") && !p.startsWith("<?")) depth++;
    prevTag = tag;
  }
  return out;
}

/**
 * The DISCO document ASMX serves at `?disco`: where the WSDL is, and each SOAP port's address and
 * binding. The bindings are read from the WSDL, once, since descriptors do not name them.
 */
import { escapeAttr } from "../xml/escape.js";
import { tokenizeXml } from "../xml/tokenizer.js";

const WSDL_NS = "http://schemas.xmlsoap.org/wsdl/";
const SOAP_ADDRESS_NS = [
  "http://schemas.xmlsoap.org/wsdl/soap/",
  "http://schemas.xmlsoap.org/wsdl/soap12/",
];

export interface SoapPort {
  readonly address: string;
  readonly bindingNs: string;
  readonly binding: string;
}

/** The WSDL's ports with a SOAP 1.1 or 1.2 address, in document order. */
export function soapPorts(wsdl: string): SoapPort[] {
  const ports: SoapPort[] = [];
  let binding: { ns: string; local: string } | undefined;
  tokenizeXml(wsdl, {
    open(tag) {
      const attr = (name: string) => tag.attributes.find((a) => a.name === name)?.value;
      if (tag.uri === WSDL_NS && tag.local === "port") {
        const qname = attr("binding") ?? "";
        const colon = qname.indexOf(":");
        const prefix = colon === -1 ? "" : qname.slice(0, colon);
        binding = { ns: tag.scope[prefix] ?? "", local: qname.slice(colon + 1) };
      } else if (binding && SOAP_ADDRESS_NS.includes(tag.uri) && tag.local === "address") {
        ports.push({
          address: attr("location") ?? "",
          bindingNs: binding.ns,
          binding: binding.local,
        });
        binding = undefined;
      }
    },
    close() {},
    text() {},
  });
  return ports;
}

/** The DISCO document of `ports`, served at `serviceUrl`; `addressOf` rewrites their addresses. */
export function discoDocument(
  ports: readonly SoapPort[],
  serviceUrl: string,
  addressOf: (address: string) => string,
): string {
  const url = escapeAttr(serviceUrl);
  const soap = ports.map(
    (p, i) =>
      `  <soap address="${escapeAttr(addressOf(p.address))}" xmlns:q${i + 1}="${escapeAttr(p.bindingNs)}" binding="q${i + 1}:${escapeAttr(p.binding)}" xmlns="http://schemas.xmlsoap.org/disco/soap/" />\n`,
  );
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n` +
    `<discovery xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://schemas.xmlsoap.org/disco/">\n` +
    `  <contractRef ref="${url}?wsdl" docRef="${url}" xmlns="http://schemas.xmlsoap.org/disco/scl/" />\n` +
    soap.join("") +
    `</discovery>`
  );
}

/**
 * A binding's WS-Policy asking for MTOM (`wsoma:OptimizedMimeSerialization`), as WCF publishes it:
 * read into the model (Binding.mtom) and on into the port descriptor (`mtom: true`).
 */
import { describe, expect, it } from "vitest";
import { loadWsdl } from "../../src/generate.js";
import { wsdl } from "../support/one-operation-wsdl.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const dir = tempDir();
const WSP = "http://schemas.xmlsoap.org/ws/2004/09/policy";
const WSOMA = "http://schemas.xmlsoap.org/ws/2004/09/policy/optimizedmimeserialization";
const WSU = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";

/** The one-operation WSDL with `head` before its types and `inBinding` first in its binding. */
async function bindingMtom(name: string, head: string, inBinding: string): Promise<boolean> {
  const text = wsdl({ head }).replace(
    '<soap:binding style="document"',
    `${inBinding}\n    <soap:binding style="document"`,
  );
  const { model } = await loadWsdl(writeTemp(dir, name, text));
  const port = model!.services[0]!.ports[0]!;
  return port.binding.mtom === true;
}

const policy = (id: string, assertion: string, ns = WSP) =>
  `  <wsp:Policy xmlns:wsp="${ns}" xmlns:wsu="${WSU}" wsu:Id="${id}"><wsp:ExactlyOne><wsp:All>${assertion}</wsp:All></wsp:ExactlyOne></wsp:Policy>\n`;
const assertion = (extra = "") =>
  `<wsoma:OptimizedMimeSerialization xmlns:wsoma="${WSOMA}" ${extra}/>`;
const reference = (id: string, ns = WSP) => `<wsp:PolicyReference xmlns:wsp="${ns}" URI="#${id}"/>`;

describe("MTOM by WS-Policy", () => {
  it("is on for a binding whose PolicyReference names a policy holding the assertion (WCF)", async () => {
    expect(
      await bindingMtom("ref.wsdl", policy("B_policy", assertion()), reference("B_policy")),
    ).toBe(true);
  });

  it("is on for an inline policy, and with WS-Policy 1.5's namespace", async () => {
    const inline = policy("x", assertion()).trim();
    expect(await bindingMtom("inline.wsdl", "", inline)).toBe(true);
    const w3c = "http://www.w3.org/ns/ws-policy";
    expect(await bindingMtom("w3c.wsdl", policy("p", assertion(), w3c), reference("p", w3c))).toBe(
      true,
    );
  });

  it("is off without the assertion, for an optional one, and for a reference to no policy", async () => {
    expect(await bindingMtom("none.wsdl", policy("p", "<wsp:Other/>"), reference("p"))).toBe(false);
    const optional = assertion(`xmlns:wsp="${WSP}" wsp:Optional="true"`);
    expect(await bindingMtom("optional.wsdl", policy("p", optional), reference("p"))).toBe(false);
    expect(await bindingMtom("dangling.wsdl", policy("p", assertion()), reference("q"))).toBe(
      false,
    );
    expect(await bindingMtom("plain.wsdl", "", "")).toBe(false);
  });

  it("reaches the port descriptor of the generated code", async () => {
    const { DocumentsDesc } = await import("../../generated-samples/documents/descriptors.js");
    expect(DocumentsDesc.ports.DocumentsSoap12.mtom).toBe(true);
    expect(DocumentsDesc.ports.DocumentsSoap.mtom).toBeUndefined();
  });
});

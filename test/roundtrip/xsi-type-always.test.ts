/**
 * `xsiType: "always"` (issue #32): the client and the server write `xsi:type` on every value of a
 * type others extend, its own type included, as Salesforce's servers do; the default writes it only
 * where a derived type stands, and both read back the same value.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestListener } from "../../runtime/src/index.js";
import { generateAndImport } from "../support/generated.js";
import { listen, type Loopback } from "../support/loopback.js";
import { wsdl } from "../support/one-operation-wsdl.js";

const WSDL = wsdl({
  types: `    <xs:schema targetNamespace="urn:n" xmlns:n="urn:n" elementFormDefault="qualified">
      <xs:complexType name="Shape"><xs:sequence><xs:element name="Name" type="xs:string"/></xs:sequence></xs:complexType>
      <xs:complexType name="Circle"><xs:complexContent><xs:extension base="n:Shape"><xs:sequence>
        <xs:element name="Radius" type="xs:int"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
      <xs:element name="Req"><xs:complexType><xs:sequence><xs:element name="Shape" type="n:Shape"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="Res"><xs:complexType><xs:sequence><xs:element name="Shape" type="n:Shape"/></xs:sequence></xs:complexType></xs:element>
    </xs:schema>`,
});

type Shape = { $type?: "Shape" | "Circle"; Name: string; Radius?: number };
interface Module {
  createSHandler(impl: object, options: { xsiType: string }): RequestListener;
  SClient: new (o: {
    endpoint: string;
    xsiType: string;
    trace: (x: { requestBody: string; response?: { body: string } }) => void;
  }) => { op(i: { Shape: Shape }): Promise<{ Shape: Shape }> };
}

describe('xsiType "always"', () => {
  let mod: Module;
  const servers: Record<string, Loopback> = {};
  beforeAll(async () => {
    mod = (await generateAndImport<Module>(WSDL, "shapes.wsdl")).mod;
    for (const xsiType of ["always", "derived"])
      servers[xsiType] = await listen(
        mod.createSHandler(
          { op: (input: { Shape: Shape }) => ({ Shape: input.Shape }) },
          { xsiType },
        ),
      );
  });
  afterAll(() => Promise.all(Object.values(servers).map((s) => s.close())));

  /** One call: what the client sent and the server answered, and the result. */
  async function call(server: string, xsiType: string, shape: Shape) {
    const wire: { request: string; response: string }[] = [];
    const client = new mod.SClient({
      endpoint: `${servers[server]!.url}/`,
      xsiType,
      trace: (x) => wire.push({ request: x.requestBody, response: x.response?.body ?? "" }),
    });
    const result = await client.op({ Shape: shape });
    return { result, ...wire[0]! };
  }

  const typed = /<Shape xmlns:t="urn:n" xsi:type="t:Shape">/;
  const circle = /<Shape xmlns:t="urn:n" xsi:type="t:Circle">/;

  it("the client and the server write it on a value of the base type only when asked", async () => {
    const plain = { Name: "p" };
    const a = await call("always", "always", plain);
    expect(a.request).toMatch(typed);
    expect(a.response).toMatch(typed);
    const d = await call("derived", "derived", plain);
    expect(d.request).not.toContain("xsi:type");
    expect(d.response).not.toContain("xsi:type");
    expect(a.result).toEqual(d.result);
    expect(d.result.Shape).toMatchObject({ Name: "p" });
  });

  it("a derived value is typed by its own type either way, once", async () => {
    const value: Shape = { $type: "Circle", Name: "c", Radius: 2 };
    for (const mode of ["always", "derived"]) {
      const r = await call(mode, mode, value);
      expect(r.request).toMatch(circle);
      expect(r.response).toMatch(circle);
      expect(r.request.match(/xsi:type=/g)).toHaveLength(1);
      expect(r.result.Shape).toEqual(value);
    }
  });
});

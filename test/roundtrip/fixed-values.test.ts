/**
 * Values the schema fixes (`fixed=`), as FedEx's VersionId fixes ServiceId "crs" and Major 31: the
 * input types give them their literal type and let required ones be left out, the writer writes a
 * required one left out and refuses any other value, and an optional one left out stays out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestListener } from "../../runtime/src/index.js";
import { generateAndImport } from "../support/generated.js";
import { listen, type Loopback } from "../support/loopback.js";
import { oneOperationWsdl } from "../support/one-operation-wsdl.js";

const WSDL = oneOperationWsdl(
  `    <xs:complexType name="Version">
      <xs:sequence>
        <xs:element name="ServiceId" type="xs:string" fixed="crs"/>
        <xs:element name="Major" type="xs:int" fixed="31"/>
        <xs:element name="Flag" type="xs:boolean" fixed="1" minOccurs="0"/>
        <xs:element name="Stamp" type="xs:dateTime" fixed="2024-01-01T00:00:00"/>
      </xs:sequence>
      <xs:attribute name="scheme" type="xs:string" fixed="v1" use="required"/>
      <xs:attribute name="note" type="xs:string" fixed="n"/>
    </xs:complexType>`,
  '<xs:element name="Version" type="t:Version"/>',
);

type Client = { op(input: unknown): Promise<unknown> };
let received: unknown;
let lb: Loopback;
let types: string;
let client: Client;

beforeAll(async () => {
  const g = await generateAndImport<{
    SClient: new (o: object) => Client;
    createSHandler: (impl: object) => RequestListener;
  }>(WSDL, "fixed.wsdl");
  types = g.file("types.ts");
  const mod = g.mod;
  lb = await listen(
    mod.createSHandler({
      op: (input: unknown) => {
        received = input;
        return {};
      },
    }),
  );
  client = new mod.SClient({ endpoint: `${lb.url}/` });
});
afterAll(() => lb?.close());

describe("fixed values", () => {
  it("input types: required fixed values optional, with their literal type; output types unchanged", () => {
    const input = /export interface VersionInput extends Omit<[^{]*\{[^}]*\}/.exec(types)![0];
    expect(input).toMatch(/ServiceId\?: "crs";/);
    expect(input).toMatch(/Major\?: 31;/);
    expect(input).toMatch(/Flag\?: true;/);
    // No literal type for a date: the property keeps its type, optional.
    expect(input).toMatch(/Stamp\?: XsdDateTimeInput;/);
    expect(input).toMatch(/scheme\?: "v1";/);
    expect(input).toMatch(/note\?: "n";/);
    const output = /export interface Version \{[^}]*\}/.exec(types)![0];
    expect(output).toMatch(/ServiceId: string;/);
    expect(output).toMatch(/scheme: string;/);
  });

  it("required fixed values left out are written as fixed; optional ones stay out", async () => {
    await client.op({ Version: {} });
    const v = (received as { Version: Record<string, unknown> }).Version;
    expect({ ...v, Stamp: String(v["Stamp"]) }).toEqual({
      ServiceId: "crs",
      Major: 31,
      Stamp: "2024-01-01T00:00:00",
      scheme: "v1",
    });
  });

  it("the fixed value itself is accepted, in any lexical form of it", async () => {
    await client.op({
      Version: {
        ServiceId: "crs",
        Major: 31,
        Flag: true,
        Stamp: "2024-01-01T00:00:00",
        scheme: "v1",
        note: "n",
      },
    });
    expect((received as { Version: Record<string, unknown> }).Version["Flag"]).toBe(true);
  });

  it("another value is refused before sending, naming the property and the fixed value", async () => {
    await expect(client.op({ Version: { ServiceId: "xyz" } })).rejects.toThrow(
      /Version\.ServiceId is fixed at 'crs' by the schema; got 'xyz'/,
    );
    await expect(client.op({ Version: { Major: 30 } })).rejects.toThrow(
      /Version\.Major is fixed at '31' by the schema; got '30'/,
    );
    await expect(client.op({ Version: { scheme: "v2" } })).rejects.toThrow(
      /Version\.scheme is fixed at 'v1' by the schema; got 'v2'/,
    );
  });
});

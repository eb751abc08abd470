/** The JSON↔typed value mapping (runtime/src/json): exact both ways, errors by JSON pointer. */
import { describe, expect, it } from "vitest";
import { attribute, complex, field, scalar, xs } from "../../runtime/src/descriptors/builders.js";
import {
  fromJsonValue,
  JsonValueError,
  operationInputFromJson,
  operationInputToJson,
  operationResultFromJson,
  operationResultToJson,
  toJsonValue,
  XsdDateTime,
  type ServiceDesc,
} from "../../runtime/src/index.js";
import { sampleInput, sampleOutput } from "../../runtime/src/descriptors/sample-values.js";
import { decodeDocument } from "../../runtime/src/xml/reader.js";
import { ApiDesc } from "../../generated-samples/message-service/descriptors.js";
import { MailboxDesc } from "../../generated-samples/choices/descriptors.js";
import { DocumentsDesc } from "../../generated-samples/documents/descriptors.js";
import { EchoServiceDesc } from "../../generated-samples/encoded-arrays/descriptors.js";
import { ShippingDesc } from "../../generated-samples/multipart/descriptors.js";
import { ScansDesc } from "../../generated-samples/swa/descriptors.js";
import { FeaturesDesc } from "../../generated-samples/xsd-features/descriptors.js";

const NS = "urn:t";
const Color = scalar("string", { values: ["Red", "Green"] });
const Row = complex(
  "Row",
  () => [
    field("Id", NS, xs.long),
    field("Big", NS, xs.unsignedLong),
    field("Blob", NS, xs.base64Binary),
    field("At", NS, xs.dateTime),
    field("Amount", NS, xs.decimal),
    field("Ratio", NS, xs.double),
    field("Color", NS, Color),
    field("Note", NS, xs.string, { min: 0 }),
    field("Gone", NS, xs.int, { nillable: true }),
    field("Tags", NS, xs.string, { min: 0, max: Infinity }),
  ],
  { attrs: [attribute("code", "", xs.int, { required: true })] },
);
const root = field("Row", NS, Row);
const xml =
  `<Row xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" code="7">` +
  `<Id>9223372036854775807</Id><Big>18446744073709551615</Big><Blob>AAEC/w==</Blob>` +
  `<At>2024-02-29T23:59:59.1234567</At><Amount>-0.10</Amount><Ratio>INF</Ratio>` +
  `<Color>Green</Color><Gone xsi:nil="true"/><Tags>a</Tags><Tags>b</Tags></Row>`;

describe("toJsonValue / fromJsonValue", () => {
  const value = decodeDocument(xml, [root]).value;
  const json = toJsonValue(Row, value);

  it("writes numbers that JSON would round as strings, dates lexically, bytes as base64", () => {
    expect(json).toEqual({
      code: 7,
      Id: "9223372036854775807",
      Big: "18446744073709551615",
      Blob: "AAEC/w==",
      At: "2024-02-29T23:59:59.1234567",
      Amount: "-0.10",
      Ratio: "INF",
      Color: "Green",
      Gone: null,
      Tags: ["a", "b"],
    });
    expect(json).not.toHaveProperty("Note");
  });

  it("reads the JSON back to the value the decoder gave, exactly", () => {
    const back = fromJsonValue(Row, JSON.parse(JSON.stringify(json))) as Record<string, unknown>;
    expect(back).toEqual(value);
    expect(back["Id"]).toBe(9223372036854775807n);
    expect(back["At"]).toBeInstanceOf(XsdDateTime);
    expect(back["Blob"]).toEqual(new Uint8Array([0, 1, 2, 255]));
  });

  it.each([
    [{ Id: 1 }, "/Id", /string/],
    [{ Id: "9223372036854775808" }, "/Id", /range/],
    [{ At: "2024-02-30T00:00:00" }, "/At", /dateTime/],
    [{ Color: "Blue" }, "/Color", /one of/],
    [{ Blob: "not base64!" }, "/Blob", /base64/],
    [{ Tags: ["a", 3] }, "/Tags/1", /string/],
    [{ Gone: undefined }, "/Gone", /required/],
    [{ Extra: 1 }, "/Extra", /not a member/],
    [{ Ratio: "1e3" }, "/Ratio", /number/],
  ])("names where a value is wrong: %j", (change, pointer, message) => {
    const bad = { ...(json as object), ...change };
    try {
      fromJsonValue(Row, bad);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(JsonValueError);
      expect((e as JsonValueError).pointer).toBe(pointer);
      expect((e as JsonValueError).detail).toMatch(message);
    }
  });
});

describe("enumerations", () => {
  it("of numbers read numbers and of strings strings, refusing others by pointer", () => {
    const Level = scalar("int", { values: ["1", "2"] });
    expect(fromJsonValue(Level, 2)).toBe(2);
    expect(() => fromJsonValue(Level, 3, "/level")).toThrow("/level: expected one of");
    expect(fromJsonValue(Color, "Red")).toBe("Red");
  });
});

/** A sample with bytes for each attachment part (samples hold none). */
function withParts(value: unknown, parts: readonly { part: string }[] | undefined): unknown {
  if (parts === undefined) return value;
  const bytes = Object.fromEntries(parts.map((p) => [p.part, new Uint8Array([1, 2, 255])]));
  return { ...(value as object), ...bytes };
}

/** Every operation of a service: its sample input and output, to JSON and back. */
function roundTrips(service: ServiceDesc) {
  for (const port of Object.values(service.ports))
    for (const [name, op] of Object.entries(port.operations)) {
      const method = Object.entries(service.methods).find(([, o]) => o === name)![0];
      const soap = op.kind === "soap" ? op : undefined;
      const sample = withParts(sampleInput(service as never, method as never), soap?.attachments);
      const input = operationInputToJson(op, sample);
      const back = operationInputFromJson(op, JSON.parse(JSON.stringify(input)));
      expect(operationInputToJson(op, back), `${port.name} ${name} input`).toEqual(input);
      const result = sampleOutput(service as never, method as never);
      const output = operationResultToJson(op, withParts(result, soap?.responseAttachments));
      const read = operationResultFromJson(op, JSON.parse(JSON.stringify(output)));
      expect(operationResultToJson(op, read), `${port.name} ${name} result`).toEqual(output);
    }
}

describe("operations", () => {
  it("round-trips every operation's input and result of the message service", () =>
    roundTrips(ApiDesc as ServiceDesc));
  it.each([
    ["choices and ordered lists", MailboxDesc],
    ["documents", DocumentsDesc],
    ["rpc/encoded arrays", EchoServiceDesc],
    ["multi-part bodies", ShippingDesc],
    ["attachments", ScansDesc],
    ["substitution groups and derived types", FeaturesDesc],
  ])("round-trips %s", (_, service) => roundTrips(service as ServiceDesc));

  it("refuses a Blob (a spooled binary) by name rather than leave it out or write {}", () => {
    const op = ScansDesc.ports.ScansSoap.operations["FetchScan"]!;
    const bytes = new Uint8Array([1, 2, 255]);
    const blob = new Blob([bytes]);
    const info = sampleOutput(ScansDesc as never, "fetchScan" as never) as object;
    expect(() => operationResultToJson(op, { ...info, scan: blob, thumbnail: bytes })).toThrow(
      "the attachment part 'scan' is a Blob",
    );
    expect(() => toJsonValue(Row, { code: 1, Blob: blob })).toThrow("the element Blob is a Blob");
    expect(() => toJsonValue(xs.base64Binary, blob)).toThrow("an xs:base64Binary value is a Blob");
  });

  it("reads an ordered list's items and refuses an unknown $choice by pointer", () => {
    const op = MailboxDesc.ports.MailboxSoap.operations["StoreItems"]!;
    const good = { Items: { Items: [{ $choice: "Message", value: { Subject: "s" } }] } };
    expect(operationInputFromJson(op, good)).toEqual(good);
    const bad = { Items: { Items: [{ $choice: "Nope", value: {} }] } };
    expect(() => operationInputFromJson(op, bad)).toThrow("/Items/Items/0/$choice");
  });
});

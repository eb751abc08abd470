/**
 * Round trip through the generated client and server for the XSD-features fixture: every branch of
 * the choice, optional fields absent and present, nil, arrays of 0, 1 and 3 items, big integers,
 * exact decimals and dates. Values must be equal on arrival and on return.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FeaturesClient,
  InvalidOrderFault,
  SoapFault,
  XsdDate,
  XsdDateTime,
  createFeaturesHandler,
  type Order,
  type OrderInput,
  type OrderResponse,
} from "../../generated-samples/xsd-features/index.js";
import { listen, type Loopback } from "../support/loopback.js";

let received: Order | undefined;
let lb: Loopback;
beforeAll(async () => {
  lb = await listen(
    createFeaturesHandler({
      order(input) {
        received = input;
        if (input.Code === "reject")
          throw new InvalidOrderFault(
            { code: "Client", message: "Code is not accepted." },
            { Field: "Code", At: new XsdDateTime("2024-05-01T08:00:00.5Z") },
          );
        return {
          Order: { Echo: input.Code ?? input.Circle?.Name ?? String(input.Width) },
          Total: input.Id % 1000n,
        };
      },
    }),
  );
});
afterAll(() => lb.close());

const base = {
  Id: 18446744073709551615n,
  Placed: "2024-03-10T12:00:00.1234567+05:30",
  Price: { $value: "12345678901234567890.000000001", currency: "EUR" },
  Tags: [] as string[],
  Note: null,
  Markers: [],
  Attachment: [],
};

const samples: Record<string, OrderInput> = {
  "circle branch, minimal": {
    ...base,
    Circle: { id: 9007199254740993n, Name: "c", Radius: "1.5" },
  },
  "code branch, every optional present": {
    ...base,
    Code: "X&<>\"'",
    Day: "2024-02-29",
    Tags: ["one"],
    Numbers: [1, -2, 2147483647],
    Tree: {
      Label: "root",
      Children: [
        { Label: "a", Children: [] },
        { Label: "b", Children: [{ Label: "c", Children: [] }] },
        { Label: "d", Children: [] },
      ],
    },
    Note: "not nil",
    Flag: false,
    Blob: new Uint8Array([0, 1, 255]),
  },
  "sequence branch, three tags": {
    ...base,
    Width: 1.25,
    Height: -0,
    Tags: ["a", "b", "c"],
    Note: "",
  },
  "circle with every attribute": {
    ...base,
    Circle: { $type: "Circle", id: 1, version: 3, Name: "full", Color: "Blue", Radius: "-0.001" },
  },
  "derived types where their base is declared (xsi:type)": {
    ...base,
    Code: "poly",
    Outline: { $type: "Circle", id: 2, Name: "round", Radius: "2.5" },
    Markers: [
      { $type: "Pin", Label: "p", Size: 1 },
      // A date in a derived type takes its input form (a Date) where the base type is declared.
      {
        $type: "Banner",
        Label: "b",
        Size: 2,
        Text: "hello",
        Since: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)),
        waving: true,
      },
      { $type: "Banner", Label: "b2", Size: 3 },
    ],
  },
  "members of a substitution group in the abstract head's place": {
    ...base,
    Code: "subst",
    Attachment: [
      { $element: "File", Name: "a.txt", Size: 3 },
      { $element: "Link", Href: "http://x/?a=1&b=2" },
      { $element: "File", Name: "b", Size: 0 },
    ],
  },
  "a type derived by restriction where its base is declared (xsi:type), with the attribute it inherits":
    {
      ...base,
      Code: "restricted",
      Outline: { $type: "Tile", id: 4, Name: "square", Color: "Green" },
    },
  "the base type itself where it is declared": {
    ...base,
    Code: "base",
    Outline: { id: 3, Name: "plain" },
    Markers: [{ $type: "Pin", Label: "only", Size: 0 }],
  },
  "xs:any and xs:anyAttribute content": {
    ...base,
    Code: "ext",
    Extension: {
      Kind: "k",
      $attributes: { plain: "1", "{urn:other}q": 'two & "three"' },
      $any: [
        {
          ns: "urn:other",
          local: "Thing",
          attrs: { a: "b" },
          children: ["text <&>", { ns: "urn:other", local: "Inner", attrs: {}, children: [] }],
        },
        { ns: "", local: "NoNs", attrs: { "{urn:x}y": "z" }, children: [] },
      ],
    },
  },
};

/**
 * What the server should decode: the input with number forms of big integers and dates normalised.
 * `$type`, which the decoder sets on every value of a derivation family, is compared where it was
 * sent; where it was left out, the decoded value must carry the declared type's (checked apart).
 */
function normalise(o: unknown, sent?: unknown): unknown {
  if (o instanceof XsdDateTime || o instanceof XsdDate) return o.lexical;
  if (o instanceof Date) return o.toISOString(); // how a Date is written
  if (o instanceof Uint8Array) return [...o];
  if (Array.isArray(o))
    return o.map((v, i) => normalise(v, Array.isArray(sent) ? sent[i] : undefined));
  if (o && typeof o === "object") {
    const s = sent as Record<string, unknown> | undefined;
    return Object.fromEntries(
      Object.entries(o)
        .filter(([k]) => k !== "$type" || s === undefined || "$type" in s)
        .map(([k, v]) => [
          k,
          k === "id" && typeof v === "number" ? BigInt(v) : normalise(v, s?.[k]),
        ]),
    );
  }
  return o;
}

describe("XSD features round trip", () => {
  for (const [name, input] of Object.entries(samples)) {
    it(name, async () => {
      const client = new FeaturesClient({ endpoint: `${lb.url}/features` });
      const result: OrderResponse = await client.order(input);
      expect(normalise(received, input)).toEqual(normalise(input));
      expect(received!.Placed).toBeInstanceOf(XsdDateTime);
      expect(result.Total).toBe(615n);
      // The server echoes what it decoded: the code, else the circle's name, else the width.
      expect(result.Order?.Echo).toBe(input.Code ?? input.Circle?.Name ?? String(input.Width));
    });
  }

  it("decoded values of a derivation family carry $type, the declared type's when none was sent", async () => {
    const client = new FeaturesClient({ endpoint: `${lb.url}/features` });
    await client.order({
      ...base,
      Circle: { id: 1, Name: "c", Radius: "1" },
      Outline: { id: 3, Name: "plain" },
    });
    expect(received!.Circle?.$type).toBe("Circle");
    expect(received!.Outline?.$type).toBe("Shape");
    await client.order({
      ...base,
      Code: "x",
      Outline: { $type: "Circle", id: 3, Name: "r", Radius: "0.5" },
    });
    const outline = received!.Outline!;
    expect(outline.$type === "Circle" && outline.Radius).toBe("0.5");
  });

  it("refuses, before sending, an abstract type without $type, a derived type's property without $type, an abstract element without $element", async () => {
    const client = new FeaturesClient({ endpoint: `${lb.url}/features` });
    received = undefined;
    const abstract = {
      ...base,
      Code: "x",
      Markers: [{ Label: "l", Size: 1 }],
    } as unknown as OrderInput;
    await expect(client.order(abstract)).rejects.toThrow(
      /Markers\[0\]: Marker is abstract; set \$type to one of 'Pin', 'Banner'/,
    );
    const lost = { ...base, Code: "x", Outline: { id: 1, Name: "n", Radius: "1" } } as OrderInput;
    await expect(client.order(lost)).rejects.toThrow(
      /Outline\.Radius is not a property of Shape; set \$type/,
    );
    const head = { ...base, Code: "x", Attachment: [{ Href: "h" }] } as unknown as OrderInput;
    await expect(client.order(head)).rejects.toThrow(
      /Attachment\[0\]: element Attachment is abstract; set \$element to one of 'Link', 'File'/,
    );
    const unknown = {
      ...base,
      Code: "x",
      Outline: { $type: "Square", id: 1, Name: "n" },
    } as unknown as OrderInput;
    await expect(client.order(unknown)).rejects.toThrow(
      /Outline\.\$type 'Square' is neither Shape nor a type derived from it/,
    );
    expect(received).toBeUndefined();
  });

  it("the types make the choice exclusive and required", () => {
    // @ts-expect-error two branches at once
    const both: OrderInput = { ...base, Code: "a", Width: 1, Height: 2 };
    // @ts-expect-error no branch
    const none: OrderInput = { ...base };
    // @ts-expect-error half a sequence branch
    const half: OrderInput = { ...base, Width: 1 };
    expect([both, none, half]).toHaveLength(3);
  });

  it("the server rejects a value outside the enumeration with a Client fault", async () => {
    const client = new FeaturesClient({ endpoint: `${lb.url}/features` });
    const bad = {
      ...base,
      Circle: { id: 1, Name: "c", Radius: "1", Color: "Purple" },
    } as unknown as OrderInput;
    await expect(client.order(bad)).rejects.toThrow(
      /'Purple' is not one of 'Red', 'Green', 'Blue'/,
    );
  });
});

describe("declared faults", () => {
  it("a typed fault thrown by the server arrives as the same class with its decoded detail", async () => {
    const client = new FeaturesClient({ endpoint: `${lb.url}/features` });
    const error = await client.order({ ...base, Code: "reject" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidOrderFault);
    expect(error).toBeInstanceOf(SoapFault);
    const f = error as InvalidOrderFault;
    expect([f.code, f.message, f.httpStatus]).toEqual([
      "soap:Client",
      "Code is not accepted.",
      500,
    ]);
    expect(f.faultDetail.Field).toBe("Code");
    expect(String(f.faultDetail.At)).toBe("2024-05-01T08:00:00.5Z");
  });

  it("a declared fault whose detail does not decode arrives untyped, saying why", async () => {
    const body =
      '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
      "<soap:Fault><faultcode>soap:Client</faultcode><faultstring>no</faultstring><detail>" +
      '<InvalidOrder xmlns="urn:example:features"><Field>Code</Field><At>yesterday</At>' +
      "</InvalidOrder></detail></soap:Fault></soap:Body></soap:Envelope>";
    const bad = await listen((_req, res) => {
      res.writeHead(500, { "content-type": "text/xml; charset=utf-8" }).end(body);
    });
    try {
      const client = new FeaturesClient({ endpoint: `${bad.url}/features` });
      const error = await client.order({ ...base, Code: "x" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SoapFault);
      expect(error).not.toBeInstanceOf(InvalidOrderFault);
      const f = error as SoapFault;
      expect(f.message).toBe("no");
      expect(f.detailError?.message).toMatch(/yesterday/);
    } finally {
      await bad.close();
    }
  });
});

/**
 * Message parts (src/model/rules/message-parts.ts): parts as fields, and the SOAP body they make.
 */
import { describe, expect, it } from "vitest";
import { soapBody } from "../../../src/model/rules/message-parts.js";
import {
  complexType,
  element,
  mapped,
  part,
  q,
  schema,
  schemaSet,
  sequence,
  xs,
} from "../../support/schema-factory.js";

const WRAPPER = q("Op");

/**
 * A schema set with the element `Order` (of complex type OrderType) and `Note` (a nillable string).
 */
const orders = () => {
  const cx = schemaSet(
    schema({
      complexTypes: [complexType("OrderType", { particle: sequence([element("id", xs("int"))]) })],
      elements: [
        element("Order", q("OrderType")),
        element("Note", xs("string"), { nillable: true }),
      ],
    }),
  );
  return { ...cx, schemas: cx.set };
};

describe("message parts", () => {
  it("rpc: the parts are the wrapper's children, a type part unqualified and named after it, an element part as its element", () => {
    const cx = orders();
    const body = soapBody(
      "rpc",
      [part("count", { type: xs("int") }), part("note", { element: q("Note") })],
      WRAPPER,
      cx,
    );
    expect(body.kind).toBe("rpc");
    if (body.kind !== "rpc") return;
    expect(body.wrapper).toEqual(WRAPPER);
    expect(body.parts.map((f) => [f.name, f.type.name?.local, f.nillable, f.minOccurs])).toEqual([
      [{ ns: "", local: "count" }, "int", false, 1],
      [q("Note"), "string", true, 1],
    ]);
    expect(cx.diagnostics.items).toEqual([]);
  });

  it("document: one element part is the body's element; several are properties named after their parts", () => {
    const cx = orders();
    const one = soapBody("document", [part("body", { element: q("Order") })], WRAPPER, cx);
    expect(one).toMatchObject({ kind: "element", element: { name: q("Order") } });
    if (one.kind === "element") expect(one.element.type).toBe(mapped(cx.set, "OrderType"));
    const two = soapBody(
      "document",
      [part("order", { element: q("Order") }), part("note", { element: q("Note") })],
      WRAPPER,
      cx,
    );
    expect(two.kind === "parts" && two.parts.map((f) => [f.name.local, f.propertyName])).toEqual([
      ["Order", "order"],
      ["Note", "note"],
    ]);
    expect(soapBody("document", [], WRAPPER, cx)).toEqual({ kind: "empty" });
  });

  it("document: a type part is an element named after it in no namespace, with a recovery warning", () => {
    const cx = orders();
    const typed = part("amount", { type: xs("decimal") });
    const body = soapBody("document", [typed], WRAPPER, cx);
    expect(body).toMatchObject({
      kind: "element",
      element: { name: { ns: "", local: "amount" }, type: { name: xs("decimal") } },
    });
    expect(cx.diagnostics.items).toMatchObject([
      { code: "WSDL_DOCUMENT_PART_TYPE", severity: "warning", line: typed.loc.line },
    ]);
  });

  it("a part with neither element nor type is an error in either style", () => {
    const cx = orders();
    const bare = part("nothing");
    const body = soapBody("rpc", [bare], WRAPPER, cx);
    expect(body.kind === "rpc" && body.parts[0]!.type.name).toEqual(xs("string"));
    expect(cx.diagnostics.items).toMatchObject([
      { code: "WSDL_PART_WITHOUT_TYPE", severity: "error", line: bare.loc.line },
    ]);
    // In a document-style body it puts nothing there, and says so as loudly.
    const doc = orders();
    expect(soapBody("document", [bare], WRAPPER, doc)).toEqual({ kind: "empty" });
    expect(doc.diagnostics.items).toMatchObject([
      { code: "WSDL_PART_WITHOUT_TYPE", severity: "error", line: bare.loc.line },
    ]);
  });
});

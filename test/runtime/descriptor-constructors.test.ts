/**
 * The constructors generated code writes its shorter descriptors with (contracts 3 and 4) build the
 * same descriptors the reader, writer and server read: a file's `field` fills in its namespace and
 * default options, and an operation table fills in each operation's `kind` and wraps a lone body
 * field as its element.
 */
import { describe, expect, it } from "vitest";
import {
  complex,
  field,
  fieldsIn,
  httpOperations,
  OPTIONAL,
  OPTIONAL_NILLABLE,
  param,
  REPEATED,
  REQUIRED,
  soapOperations,
  xs,
} from "../../runtime/src/index.js";

const NS = "urn:a";
const OTHER = "urn:b";

describe("fieldsIn", () => {
  const inNs = fieldsIn(NS);

  it("gives a field that names no namespace its own", () => {
    const f = inNs("Id", xs.int, OPTIONAL);
    expect(f).toEqual(field("Id", NS, xs.int, OPTIONAL));
    expect(f.ns).toBe(NS);
    expect(f.min).toBe(0);
  });

  it("keeps a namespace the field names, unqualified included", () => {
    expect(inNs("Code", OTHER, xs.int).ns).toBe(OTHER);
    expect(inNs("Code", "", xs.string, OPTIONAL)).toEqual(field("Code", "", xs.string, OPTIONAL));
  });

  it("takes a type as a thunk too", () => {
    const T = complex("T", () => []);
    expect(inNs("T", () => T).type).toBe(T);
    expect(inNs("T", OTHER, () => T).type).toBe(T);
  });
});

describe("fieldsIn with default options", () => {
  // A file whose fields are mostly optional and nillable (WCF's) leaves those options unsaid.
  const inNs = fieldsIn(NS, OPTIONAL_NILLABLE);

  it("gives a field that states no options the defaults, whatever its namespace", () => {
    expect(inNs("Id", xs.int)).toEqual(field("Id", NS, xs.int, OPTIONAL_NILLABLE));
    expect(inNs("Code", OTHER, xs.int)).toEqual(field("Code", OTHER, xs.int, OPTIONAL_NILLABLE));
    expect(inNs("Id", xs.int).nillable).toBe(true);
  });

  it("gives a field that states options exactly those, not merged with the defaults", () => {
    const required = inNs("Id", xs.int, REQUIRED);
    expect(required).toEqual(field("Id", NS, xs.int));
    expect([required.min, required.max, required.nillable]).toEqual([1, 1, false]);
    expect(inNs("Id", xs.int, OPTIONAL).nillable).toBe(false);
    expect(inNs("Ids", OTHER, xs.int, REPEATED)).toEqual(field("Ids", OTHER, xs.int, REPEATED));
    expect(inNs("Id", xs.int, { prop: "id" })).toEqual(field("Id", NS, xs.int, { prop: "id" }));
  });
});

describe("operation tables", () => {
  const Req = complex("Req", () => []);
  const request = field("Req", NS, Req);
  const response = { element: field("Res", NS, Req), void: true };

  it("mark SOAP operations and wrap a lone body field as its element", () => {
    const table = soapOperations({
      Op: { action: "urn:op", request, response, headers: ["h"] },
      Empty: { action: undefined, request: undefined, response: undefined, oneWay: true },
    });
    expect(table["Op"]).toEqual({
      kind: "soap",
      action: "urn:op",
      request: { element: request },
      response,
      headers: ["h"],
    });
    expect(table["Op"]?.kind === "soap" && table["Op"].response).toBe(response);
    expect(table["Empty"]).toEqual({
      kind: "soap",
      action: undefined,
      request: undefined,
      response: undefined,
      oneWay: true,
    });
  });

  it("mark HTTP operations the same way", () => {
    const table = httpOperations({ Get: { location: "/Get", params: [], response: request } });
    expect(table["Get"]).toEqual({
      kind: "http",
      location: "/Get",
      params: [],
      response: { element: request },
    });
  });
});

describe("param", () => {
  it("builds a required, single parameter read from the property of its name by default", () => {
    expect(param("email", xs.string)).toEqual({
      name: "email",
      prop: "email",
      type: xs.string,
      required: true,
      repeated: false,
    });
  });

  it("takes only the options that differ, each on its own", () => {
    expect(param("Id", xs.int, { prop: "id", required: false, repeated: true })).toEqual({
      name: "Id",
      prop: "id",
      type: xs.int,
      required: false,
      repeated: true,
    });
    expect(param("Id", xs.int, { required: false })).toMatchObject({ prop: "Id", repeated: false });
  });
});

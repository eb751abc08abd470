/**
 * What a recording writes to its response file is what the mock reads back from it: the recorder
 * writes bytes as base64, and a response file's binaries, hexBinary too, are read as base64. And
 * what it does not write: a secret-named member of the result or of a fault's detail.
 */
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { complex, field, xs } from "../../runtime/src/descriptors/builders.js";
import { soapOperations, type ServiceDesc } from "../../runtime/src/descriptors/operations.js";
import { createMocks, SoapFault } from "../../runtime/src/index.js";
import {
  redactedResult,
  storedFault,
  writeRecording,
} from "../../runtime/src/server/mock/record.js";
import { typedResult } from "../../runtime/src/server/mock/typed.js";
import { tempDir } from "../support/tmp.js";

const NS = "urn:t";
const Key = complex("Key", () => [
  field("Hex", NS, xs.hexBinary),
  field("Raw", NS, xs.base64Binary),
]);
const Reading = complex("Reading", () => [
  field("High", NS, xs.double),
  field("Low", NS, xs.double),
  field("Odd", NS, xs.float),
  field("Plain", NS, xs.double),
]);
const ops = soapOperations({
  GetKey: { action: `${NS}/GetKey`, request: undefined, response: field("Key", NS, Key) },
  GetReading: {
    action: `${NS}/GetReading`,
    request: undefined,
    response: field("Reading", NS, Reading),
  },
});

describe("a recorded response", () => {
  it("replays hexBinary and base64Binary values equal to those recorded", () => {
    const value = { Hex: new Uint8Array([0, 1, 0xab, 0xff]), Raw: new Uint8Array([9, 8, 7]) };
    const file = writeRecording(tempDir(), "GetKey", {}, { value });
    const body = JSON.parse(readFileSync(file, "utf8")) as { response: unknown };
    expect(body.response).toEqual({ Hex: "AAGr/w==", Raw: "CQgH" });
    expect(typedResult(ops["GetKey"]!, body.response)).toEqual(value);
  });

  it("replays a redacted binary, number or date as its type's plainest value", () => {
    const redacted = { Hex: "[redacted]", Raw: "[redacted]" };
    expect(typedResult(ops["GetKey"]!, redacted)).toEqual({
      Hex: new Uint8Array(0),
      Raw: new Uint8Array(0),
    });
    const numbers = { High: "[redacted]", Low: 1, Odd: "[redacted]", Plain: 2 };
    expect(typedResult(ops["GetReading"]!, numbers)).toEqual({ High: 0, Low: 1, Odd: 0, Plain: 2 });
    // Any other text where the schema wants no string is still the file's mistake, by its path.
    expect(() => typedResult(ops["GetReading"]!, { High: "[secret]" })).toThrow(/response\.High/);
  });

  it("replays INF, -INF and NaN, which plain JSON would write as null", () => {
    const value = { High: Infinity, Low: -Infinity, Odd: NaN, Plain: 2.5 };
    const file = writeRecording(tempDir(), "GetReading", {}, { value });
    const body = JSON.parse(readFileSync(file, "utf8")) as { response: unknown };
    expect(body.response).toEqual({ High: "INF", Low: "-INF", Odd: "NaN", Plain: 2.5 });
    expect(typedResult(ops["GetReading"]!, body.response)).toEqual(value);
  });
});

const Session = complex("Session", () => [
  field("User", NS, xs.string),
  field("AccessToken", NS, xs.string),
  field(
    "Credentials",
    NS,
    complex("Credentials", () => [field("Name", NS, xs.string)]),
  ),
]);
const wrapped = (name: string, prop: string, type: typeof Session | typeof xs.string) => ({
  element: field(
    name,
    NS,
    complex(name, () => [field(prop, NS, type)]),
  ),
  prop,
});
const Auth: ServiceDesc = {
  name: "Auth",
  targetNamespace: NS,
  defaultPort: "AuthSoap",
  methods: { login: "Login", getToken: "GetToken", logout: "Logout" },
  ports: {
    AuthSoap: {
      name: "AuthSoap",
      protocol: "soap11",
      address: "http://auth.invalid/",
      operations: soapOperations({
        Login: {
          action: `${NS}/Login`,
          request: undefined,
          response: wrapped("LoginResponse", "LoginResult", Session),
        },
        GetToken: {
          action: `${NS}/GetToken`,
          request: undefined,
          response: wrapped("GetTokenResponse", "GetTokenResult", xs.string),
        },
        Logout: { action: `${NS}/Logout`, request: undefined, response: undefined },
      }),
    },
  },
} as ServiceDesc;

describe("a recording of a result or fault holding a secret", () => {
  const session = { User: "ann", AccessToken: "tok-1", Credentials: { Name: "ann-svc" } };
  const detail = {
    ns: NS,
    local: "LoginFailed",
    attrs: { apiKey: "k-9", reason: "expired" },
    children: [
      { ns: NS, local: "Password", attrs: {}, children: ["s3cret"] },
      { ns: NS, local: "User", attrs: {}, children: ["ann"] },
    ],
  };
  const client = {
    login: async () => session,
    getToken: async () => "tok-2",
    logout: async () => {
      throw new SoapFault({
        code: "soap:Server",
        message: "no",
        detail: { ns: "", local: "detail", attrs: {}, children: [detail] },
      });
    },
  };

  it("stores REDACTED for secret-named members; the caller gets the real answer", async () => {
    const dir = tempDir();
    const mocks = createMocks({ dir });
    mocks.record(Auth as never, client);
    const answer = (m: string) => mocks.answer(Auth as never, m as never, undefined);
    expect(await answer("login")).toEqual(session);
    expect(await answer("getToken")).toBe("tok-2");
    await expect(answer("logout")).rejects.toThrow("no");
    const read = (op: string) => {
      const [file] = readdirSync(path.join(dir, op));
      return JSON.parse(readFileSync(path.join(dir, op, file!), "utf8")) as Record<string, any>;
    };
    expect(read("Login").response).toEqual({
      User: "ann",
      AccessToken: "[redacted]",
      Credentials: { Name: "[redacted]" },
    });
    expect(read("GetToken").response).toBe("[redacted]");
    const fault = read("Logout").fault as { detail: string };
    expect(fault.detail).toContain("<User>ann</User>");
    expect(fault.detail).toContain('reason="expired"');
    const text = JSON.stringify([read("Login"), read("GetToken"), read("Logout")]);
    expect(text).not.toMatch(/tok-1|tok-2|ann-svc|s3cret|k-9/);
  });

  it("redacts a secret-named element of a detail given as XML text", () => {
    const xml = '<a:Token xmlns:a="urn:a">t-3</a:Token><Note>kept</Note>';
    const stored = storedFault(new SoapFault({ code: "Server", message: "m", detail: xml }));
    expect(stored.detail).toBe('<a:Token xmlns:a="urn:a">[redacted]</a:Token><Note>kept</Note>');
  });
});

describe("a recorded result holding XML trees (anyType, xs:any)", () => {
  const el = (local: string, children: unknown[], attrs = {}) => ({
    ns: "",
    local,
    attrs,
    children,
  });

  it("redacts a secret-named element inside a tree, keeping the tree's names", () => {
    const value = { Items: [el("Extra", [el("Password", ["hunter2"]), el("User", ["ann"])])] };
    const stored = JSON.stringify(redactedResult(value));
    expect(stored).not.toContain("hunter2");
    expect(redactedResult(value)).toEqual({
      Items: [el("Extra", [el("Password", ["[redacted]"]), el("User", ["ann"])])],
    });
  });

  it("keeps a secret-named member's tree an element, its content redacted", () => {
    const value = { Token: el("T", ["s3cret"], { kind: "bearer" }) };
    expect(redactedResult(value)).toEqual({ Token: el("T", ["[redacted]"]) });
  });
});

/**
 * The typed contract users' code relies on. These assertions are checked by `tsc` (npm run
 * typecheck covers test/), and the runtime checks make the file a real test too.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  ApiClient,
  HttpBindingError,
  SoapFault,
  XsdDateTime,
  type ApiPortName,
  type ApiService,
  type DeleteMessage,
  type GetMessagesInDateRangeInput,
  type Messages,
} from "../../generated-samples/message-service/index.js";
import type { Node, NodeInput } from "../../generated-samples/xsd-features/index.js";

describe("the generated types", () => {
  it("pin the contract of the client", () => {
    expectTypeOf<ApiClient["getMessages"]>().returns.resolves.toEqualTypeOf<
      (Messages | null)[] | undefined
    >();
    expectTypeOf<ApiClient["getMessagesInDateRange"]>().returns.resolves.toEqualTypeOf<
      (Messages | null)[] | undefined
    >();
    expectTypeOf<ApiClient["deleteMessage"]>().returns.resolves.toEqualTypeOf<void>();
    expectTypeOf<GetMessagesInDateRangeInput["startDate"]>().toEqualTypeOf<
      XsdDateTime | Date | string
    >();
    expectTypeOf<Messages["DateArrived"]>().toEqualTypeOf<XsdDateTime>();
    expectTypeOf<Messages["UserId"]>().toEqualTypeOf<number>();
    expectTypeOf<Messages>().toHaveProperty("Sender").toEqualTypeOf<string | undefined>();
    expectTypeOf<DeleteMessage["MessageId"]>().toEqualTypeOf<number>();
    expectTypeOf<ApiPortName>().toEqualTypeOf<
      "ApiSoap" | "ApiSoap12" | "ApiHttpGet" | "ApiHttpPost"
    >();
    expectTypeOf<ApiService["deleteMessage"]>().returns.toEqualTypeOf<void | Promise<void>>();
    // Required fields are required; optional ones may be left out, but not set to undefined.
    // @ts-expect-error MessageId is required
    const missing: DeleteMessage = { email: "a" };
    // @ts-expect-error exactOptionalPropertyTypes: absent is not undefined
    const explicitUndefined: DeleteMessage = { email: undefined, MessageId: 1 };
    // An optional repeated element may be left out of an input (no items); a result has it.
    const leaf: NodeInput = { Label: "leaf" };
    const tree: NodeInput = { Label: "root", Children: [leaf, { Label: "b", Children: [] }] };
    // @ts-expect-error a decoded Node always has its Children array
    const decoded: Node = { Label: "leaf" };
    expectTypeOf<Node["Children"]>().toEqualTypeOf<Node[]>();
    void missing;
    void explicitUndefined;
    void tree;
    void decoded;
    expect(new ApiClient({ port: "ApiSoap12" }).port).toBe("ApiSoap12");
    expect(new ApiClient().port).toBe("ApiSoap");
    expect(() => new ApiClient({ port: "Nope" as ApiPortName })).toThrow(/unknown port 'Nope'/);
    expect(new SoapFault({ code: "soap:Sender", message: "m" }).side).toBe("Client");
    expect(new HttpBindingError(500, "oops\nmore").message).toBe("HTTP 500: oops");
  });
});

/**
 * Descriptors carry their TypeScript types: a type descriptor its value and input form, a service
 * descriptor its operations, from which the client and implementation types are mapped. Checked by
 * `tsc` (npm run typecheck covers test/); the runtime checks make the file a real test too.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  ApiDesc,
  ArrayOfMessages as ArrayOfMessagesDesc,
  GetMessages as GetMessagesDesc,
  Messages as MessagesDesc,
} from "../../generated-samples/message-service/descriptors.js";
import type {
  ApiClient,
  ApiOperations,
  ApiService,
  ArrayOfMessages,
  ArrayOfMessagesInput,
  GetMessages,
  GetMessagesInDateRange,
  Messages,
  MessagesInput,
} from "../../generated-samples/message-service/index.js";
import { Shape as ShapeDesc } from "../../generated-samples/xsd-features/descriptors.js";
import type {
  ShapeOrDerived,
  ShapeOrDerivedInput,
} from "../../generated-samples/xsd-features/types.js";
import type {
  CampaignManagementServiceClient,
  CampaignManagementService,
  CampaignManagementServiceSoapHeaders,
} from "../../generated-samples/corpus/bing-campaign-management/index.js";
import {
  complex,
  field,
  xs,
  type CallOptions,
  type Client,
  type ComplexDesc,
  type Implementation,
  type InputOf,
  type RequestContext,
  type ValueOf,
} from "../../runtime/src/index.js";

const TypedMessages: ComplexDesc<Messages, MessagesInput> = complex("Messages", () => [
  field("Id", "urn:m", xs.int),
]);

describe("a type descriptor's types", () => {
  it("are its value and input form", () => {
    expectTypeOf<ValueOf<typeof TypedMessages>>().toEqualTypeOf<Messages>();
    expectTypeOf<InputOf<typeof TypedMessages>>().toEqualTypeOf<MessagesInput>();
    expect(TypedMessages.fields.map((f) => f.name)).toEqual(["Id"]);
  });

  it("let a typed descriptor stand where an untyped one is read, but not for another type", () => {
    // Judged by the compiler (`npm run typecheck`, part of `npm test`), not at run time: the first
    // assignment compiles, and the second must not.
    const untyped: ComplexDesc = TypedMessages;
    // @ts-expect-error a descriptor of Messages is not one of numbers
    const wrong: ComplexDesc<number> = TypedMessages;
    void [untyped, wrong];
  });
});

describe("a generated type descriptor's types", () => {
  it("are the type's value and, where it differs, its input form", () => {
    expectTypeOf<ValueOf<typeof MessagesDesc>>().toEqualTypeOf<Messages>();
    expectTypeOf<InputOf<typeof MessagesDesc>>().toEqualTypeOf<MessagesInput>();
    // No input form of its own: what a caller writes is the value type.
    expectTypeOf<ValueOf<typeof GetMessagesDesc>>().toEqualTypeOf<GetMessages>();
    expectTypeOf<InputOf<typeof GetMessagesDesc>>().toEqualTypeOf<GetMessages>();
    expectTypeOf<ValueOf<typeof ArrayOfMessagesDesc>>().toEqualTypeOf<ArrayOfMessages>();
    expectTypeOf<InputOf<typeof ArrayOfMessagesDesc>>().toEqualTypeOf<ArrayOfMessagesInput>();
    expect(MessagesDesc.fields.map((f) => f.name)).toContain("DateArrived");
  });

  it("are the family union for a type that others extend: a value may be a derived type", () => {
    expectTypeOf<ValueOf<typeof ShapeDesc>>().toEqualTypeOf<ShapeOrDerived>();
    expectTypeOf<InputOf<typeof ShapeDesc>>().toEqualTypeOf<ShapeOrDerivedInput>();
    expect(ShapeDesc.family?.derived.length).toBeGreaterThan(0);
  });

  it("refuse to stand for a descriptor of another type", () => {
    // @ts-expect-error Messages' descriptor is not GetMessages'
    const wrong: ComplexDesc<GetMessages> = MessagesDesc;
    // @ts-expect-error nor is its input form another type's
    const wrongInput: ComplexDesc<Messages, GetMessages> = MessagesDesc;
    const untyped: ComplexDesc = MessagesDesc;
    // Judged by the compiler (`npm run typecheck`, part of `npm test`), as above.
    void [wrong, wrongInput, untyped];
  });
});

describe("a service descriptor's types", () => {
  it("give the client and the implementation", () => {
    // The client's interface is written out, one object type; the mapped one an intersection.
    type Flat<T> = { [K in keyof T]: T[K] };
    expectTypeOf<Flat<ApiClient>>().toEqualTypeOf<Flat<Client<typeof ApiDesc>>>();
    expectTypeOf<ApiService>().toEqualTypeOf<Implementation<typeof ApiDesc>>();
    expectTypeOf<ApiClient["getMessagesInDateRange"]>()
      .parameter(0)
      .toEqualTypeOf<ApiOperations["getMessagesInDateRange"]["input"]>();
    expectTypeOf<ApiService["getMessagesInDateRange"]>()
      .parameter(0)
      .toEqualTypeOf<GetMessagesInDateRange>();
    expectTypeOf<ApiService["getMessages"]>().parameter(1).toEqualTypeOf<RequestContext>();
    expectTypeOf<ApiClient["port"]>().toEqualTypeOf<
      "ApiSoap" | "ApiSoap12" | "ApiHttpGet" | "ApiHttpPost"
    >();
  });

  it("name every method the client and the implementation have", () => {
    expect(ApiDesc.methods).toEqual({
      getMessages: "GetMessages",
      getMessagesInDateRange: "GetMessagesInDateRange",
      deleteMessage: "DeleteMessage",
    });
    expectTypeOf<keyof typeof ApiDesc.methods>().toEqualTypeOf<keyof ApiOperations>();
  });

  it("type the SOAP headers a client sends and receives and an implementation reads", () => {
    type Headers = CampaignManagementServiceSoapHeaders;
    expectTypeOf<CampaignManagementServiceClient["getCampaignsByIds"]>()
      .parameter(1)
      .toEqualTypeOf<CallOptions<Headers, Headers> | undefined>();
    expectTypeOf<CampaignManagementService["getCampaignsByIds"]>()
      .parameter(1)
      .toEqualTypeOf<RequestContext<Headers, Headers>>();
  });
});

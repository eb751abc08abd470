/** requestContext: a context for calling a service implementation directly, as a unit test does. */
import { describe, expect, expectTypeOf, it } from "vitest";
import { requestContext, type RequestContext } from "../../runtime/src/index.js";

interface Headers {
  readonly Session?: { readonly id: string };
  readonly Trace?: string;
}

describe("requestContext", () => {
  it("has no headers over SOAP 1.1 unless told otherwise", () => {
    const ctx = requestContext();
    expect({ ...ctx, setResponseSoapHeaders: undefined }).toEqual({
      headers: {},
      soapHeaders: {},
      soapHeaderElements: [],
      remoteAddress: undefined,
      binding: "soap11",
      port: "",
      operation: "",
      setResponseSoapHeaders: undefined,
      responseSoapHeaders: {},
    });
    const over = requestContext<Headers>({
      binding: "httpGet",
      port: "ApiHttpGet",
      operation: "GetMessages",
      headers: { host: "h" },
      soapHeaders: { Trace: "t" },
    });
    expect([over.binding, over.port, over.operation, over.headers, over.soapHeaders]).toEqual([
      "httpGet",
      "ApiHttpGet",
      "GetMessages",
      { host: "h" },
      { Trace: "t" },
    ]);
  });

  it("collects the SOAP header entries an implementation sets, merged as the server merges them", () => {
    const ctx = requestContext<Headers>();
    const impl = (c: RequestContext<Headers>) => {
      c.setResponseSoapHeaders({ Session: { id: "1" } });
      c.setResponseSoapHeaders({ Trace: "x" });
      c.setResponseSoapHeaders({ Session: { id: "2" } });
    };
    impl(ctx);
    expect(ctx.responseSoapHeaders).toEqual({ Session: { id: "2" }, Trace: "x" });
    expectTypeOf(ctx).toMatchTypeOf<RequestContext<Headers>>();
    // An override cannot replace the collector (judged by the compiler, in `npm run typecheck`).
    const replacing = () =>
      requestContext<Headers>({
        // @ts-expect-error the collector is not among the overrides
        setResponseSoapHeaders: () => undefined,
      });
    void replacing;
  });
});

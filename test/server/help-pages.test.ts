/**
 * The help pages (docs/help-pages.md) of the generated Message Retrieval Service handler: the
 * service page, the operation pages with their samples, the test form and who may use it, escaping
 * and the security headers, and the options that turn them off or open the form.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiDesc } from "../../generated-samples/message-service/descriptors.js";
import {
  SoapFault,
  createApiHandler,
  type ApiService,
} from "../../generated-samples/message-service/index.js";
import {
  complex,
  createServiceHandler,
  field,
  xs,
  type ServiceDesc,
} from "../../runtime/src/index.js";
import { listen, type Loopback } from "../support/loopback.js";
import {
  fromAddress,
  postFormFrom,
  pageSamples,
  portOf,
  readResponseSample,
  sendSample,
} from "../support/help-samples.js";

const calls: { op: string; input: unknown }[] = [];
const impl: ApiService = {
  getMessages(input) {
    calls.push({ op: "GetMessages", input });
    if (input.password !== "right")
      throw new SoapFault({ code: "Client", message: "Invalid email or password." });
    return [{ DateArrived: "2024-01-05T10:00:00", UserId: 1, Id: 7, Sender: "a <b> & c" }];
  },
  getMessagesInDateRange(input) {
    calls.push({ op: "GetMessagesInDateRange", input });
    return [];
  },
  deleteMessage(input) {
    calls.push({ op: "DeleteMessage", input });
  },
};

let lb: Loopback;
beforeAll(async () => {
  lb = await listen(createApiHandler(impl));
});
afterAll(() => lb.close());

const get = async (path: string) => {
  const res = await fetch(lb.url + path);
  return { status: res.status, headers: res.headers, text: await res.text() };
};
const postForm = async (op: string, form: Record<string, string>) => {
  const res = await fetch(`${lb.url}/api.asmx?op=${op}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, text: await res.text() };
};

describe("the service page", () => {
  it("lists the operations with their documentation, links and the WSDL, with safe headers", async () => {
    const r = await get("/api.asmx");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = r.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).not.toMatch(/unsafe-inline|script-src/);
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("x-frame-options")).toBe("DENY");
    expect(r.text).toContain("Message Retrieval Service (reference peer)");
    expect(r.text).toContain('href="api.asmx?op=GetMessagesInDateRange"');
    expect(r.text).toContain("Deletes one message of the account.");
    expect(r.text).toContain('href="api.asmx?WSDL"');
    expect(r.text).not.toMatch(/<script/i);
  });

  it("answers 404 when the pages are turned off", async () => {
    const off = await listen(createApiHandler(impl, { helpPages: false }));
    try {
      expect((await fetch(`${off.url}/api.asmx`)).status).toBe(404);
      expect((await fetch(`${off.url}/api.asmx?op=GetMessages`)).status).toBe(404);
      // The WSDL is still served.
      expect((await fetch(`${off.url}/api.asmx?WSDL`)).status).toBe(200);
    } finally {
      await off.close();
    }
  });
});

describe("the operation pages", () => {
  it("show the documentation, the parameters with XSD types and occurrence, and four samples", async () => {
    const r = await get("/api.asmx?op=GetMessagesInDateRange");
    expect(r.status).toBe(200);
    expect(r.headers.get("x-frame-options")).toBe("DENY");
    expect(r.text).toContain("Returns the messages whose DateArrived lies in [startDate, endDate]");
    expect(r.text).toContain("<tr><td>startDate</td><td>dateTime</td><td>1</td></tr>");
    expect(r.text).toContain("<tr><td>email</td><td>string</td><td>0..1 (optional)</td></tr>");
    const samples = pageSamples(r.text);
    expect(samples.map((s) => s.protocol)).toEqual(["soap11", "soap12", "httpGet", "httpPost"]);
    // Placeholders name the types; the result array shows two items; optional fields are marked.
    expect(r.text).toMatch(/&lt;startDate&gt;<span class="ph" data-value="[^"]+">dateTime<\/span>/);
    expect(r.text).toMatch(/&lt;Id&gt;<span class="ph" data-value="[^"]+">int<\/span>/);
    expect(r.text).toMatch(/&lt;Sender&gt;<span class="ph opt" data-value="[^"]+">string<\/span>/);
    for (const s of samples) expect(s.response!.match(/<Messages>/g)).toHaveLength(2);
  });

  it("hold samples the server accepts and the reader reads", async () => {
    for (const op of ["GetMessages", "GetMessagesInDateRange", "DeleteMessage"]) {
      const samples = pageSamples((await get(`/api.asmx?op=${op}`)).text);
      expect(samples).toHaveLength(4);
      for (const s of samples) {
        calls.length = 0;
        const res = await sendSample(lb.url, s.request!);
        const text = await res.text();
        // The implementation was reached: the server read the request (GetMessages then refuses the
        // password).
        expect(
          calls.map((c) => c.op),
          `${op} ${s.id}: ${text}`,
        ).toEqual([op]);
        expect(() => readResponseSample(portOf(ApiDesc, s.id), op, s.response!)).not.toThrow();
      }
    }
  });

  it("answer 404 for an unknown operation, escaping its name", async () => {
    const r = await get("/api.asmx?op=%3Cscript%3Ealert(1)%3C/script%3E");
    expect(r.status).toBe(404);
    expect(r.text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(r.text).not.toMatch(/<script/i);
  });
});

describe("the test form", () => {
  it("has one field per parameter, the password masked", async () => {
    const r = await get("/api.asmx?op=DeleteMessage");
    expect(r.text).toContain('action="?op=DeleteMessage"');
    expect(r.text).toContain('type="text" name="email"');
    expect(r.text).toContain('type="password" name="password"');
    expect(r.text).toContain('type="text" name="MessageId"');
  });

  it("invokes the operation over HTTP POST and shows the answer escaped, never the password", async () => {
    calls.length = 0;
    const r = await postForm("GetMessages", { email: "a@b", password: "right" });
    expect(r.status).toBe(200);
    expect(calls).toEqual([{ op: "GetMessages", input: { email: "a@b", password: "right" } }]);
    expect(r.text).toContain("&lt;Sender&gt;a &amp;lt;b&amp;gt; &amp;amp; c&lt;/Sender&gt;");
    expect(r.text).not.toContain("right");
  });

  it("shows a fault's text, and does not repeat the password", async () => {
    const r = await postForm("GetMessages", { email: "a@b", password: "wrong-secret" });
    expect(r.text).toMatch(/class="fault"[^]*Invalid email or password\./);
    expect(r.text).not.toContain("wrong-secret");
  });

  it("says an empty answer succeeded", async () => {
    calls.length = 0;
    const r = await postForm("DeleteMessage", { email: "a", password: "b", MessageId: "5" });
    expect(calls).toEqual([
      { op: "DeleteMessage", input: { email: "a", password: "b", MessageId: 5 } },
    ]);
    expect(r.text).toContain("HTTP 200 and an empty body");
  });

  it("reads its body as the server reads any: too large is a 413 page, a charset is honoured", async () => {
    calls.length = 0;
    const big = await postForm("GetMessages", { email: "a".repeat(70_000), password: "right" });
    expect(big.status).toBe(413);
    expect(big.text).toContain("The form is larger than a test form can be.");
    const latin1 = await fetch(`${lb.url}/api.asmx?op=GetMessages`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded; charset=iso-8859-1" },
      body: Buffer.from("email=j\xe9&password=right", "latin1"),
    });
    expect(latin1.status).toBe(200);
    expect(calls).toEqual([{ op: "GetMessages", input: { email: "jé", password: "right" } }]);
  });

  it("is refused to a remote address, unless the handler allows any", async () => {
    calls.length = 0;
    const handler = createApiHandler(impl);
    const body = "email=a&password=right";
    const post = await postFormFrom(handler, "203.0.113.9", "GetMessages", body);
    expect(post.status).toBe(403);
    expect(post.body).toContain("only available for requests from the local machine");
    expect(calls).toEqual([]);
    const page = await fromAddress(handler, "203.0.113.9", "GET", "/api.asmx?op=GetMessages");
    expect(page.body).toContain("only available for requests from the local machine");
    expect(page.body).not.toContain("<form");
    // IPv6 loopback and IPv4 mapped into IPv6 count as local.
    for (const local of ["::1", "::ffff:127.0.0.1"])
      expect((await fromAddress(handler, local, "GET", "/api.asmx?op=GetMessages")).body).toContain(
        "<form",
      );
    const open = createApiHandler(impl, { helpFormFromAnyAddress: true });
    const allowed = await postFormFrom(open, "203.0.113.9", "GetMessages", body);
    expect(allowed.status).toBe(200);
    expect(calls.map((c) => c.op)).toEqual(["GetMessages"]);
  });
});

describe("the test form's posts from elsewhere", () => {
  it("are refused when another site's page sends them, or they name a host that is not loopback", async () => {
    calls.length = 0;
    const handler = createApiHandler(impl);
    const form = "email=a&password=right";
    const post = (headers: Record<string, string>) =>
      postFormFrom(handler, "127.0.0.1", "GetMessages", form, headers);
    const crossOrigin = await post({ origin: "http://evil.example", host: "localhost:8089" });
    expect(crossOrigin.status).toBe(403);
    expect(crossOrigin.body).toContain("only accepts posts from its own page");
    expect((await post({ "sec-fetch-site": "cross-site", host: "localhost:8089" })).status).toBe(
      403,
    );
    // DNS rebinding: another site's name, resolved to this machine, in Host and Origin alike.
    const rebound = await post({ origin: "http://evil.example:8089", host: "evil.example:8089" });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain("only available at a loopback address");
    expect(calls).toEqual([]);
    const own = await post({
      origin: "http://127.0.0.1:8089",
      host: "127.0.0.1:8089",
      "sec-fetch-site": "same-origin",
    });
    expect(own.status).toBe(200);
    expect(calls.map((c) => c.op)).toEqual(["GetMessages"]);
  });
});

describe("a service without HTTP bindings", () => {
  const REQ = field("Req", "urn:n", () =>
    complex("Req", () => [
      field("n", "urn:n", xs.int),
      field("when", "urn:n", xs.dateTime, { min: 0 }),
      field("secret", "urn:n", xs.int, { min: 0 }),
    ]),
  );
  const RES = field("Res", "urn:n", () => complex("Res", () => [field("r", "urn:n", xs.string)]));
  const desc: ServiceDesc = {
    name: "S<&>",
    targetNamespace: "urn:svc",
    defaultPort: "P",
    methods: { Op: "Op" },
    ports: {
      P: {
        name: "P",
        protocol: "soap11",
        address: "http://localhost/svc",
        operations: {
          Op: {
            kind: "soap",
            action: "urn:Op",
            request: { element: REQ },
            response: { element: RES },
            oneWay: false,
          },
        },
      },
    },
  };
  const wsdl = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"><documentation>&lt;script&gt;alert(1)&lt;/script&gt;</documentation>
<portType name="T"><operation name="Op"><documentation>Doubles "n" &amp; more</documentation></operation></portType></definitions>`;

  it("escapes the WSDL's text, and its form posts a SOAP 1.1 request built from the fields", async () => {
    const seen: unknown[] = [];
    const handler = createServiceHandler({
      service: desc,
      embeddedWsdl: wsdl,
      impl: {
        Op: (input: { n: number }) => (seen.push(input), { r: String(input.n * 2) }),
      } as never,
    });
    const s = await listen(handler);
    try {
      const page = await (await fetch(`${s.url}/svc`)).text();
      expect(page).toContain("<title>S&lt;&amp;&gt; Web Service</title>");
      expect(page).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
      expect(page).not.toMatch(/<script/i);
      const op = await (await fetch(`${s.url}/svc?op=Op`)).text();
      expect(op).toContain("Doubles &quot;n&quot; &amp; more");
      expect(pageSamples(op).map((x) => x.protocol)).toEqual(["soap11"]);
      const post = (form: string) =>
        fetch(`${s.url}/svc?op=Op`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: form,
        }).then(async (r) => ({ status: r.status, text: await r.text() }));
      const ok = await post("n=21&when=");
      expect(seen).toEqual([{ n: 21 }]);
      expect(ok.text).toContain("&lt;r&gt;42&lt;/r&gt;");
      const bad = await post("n=twenty");
      expect(bad.status).toBe(400);
      expect(bad.text).toContain("n: &#39;twenty&#39; is not a valid xs:int value");
      // A password field's value is not quoted back, even when it does not parse.
      const secret = await post("n=1&secret=987654x");
      expect(secret.status).toBe(400);
      expect(secret.text).toContain("secret: not a valid xs:int value");
      expect(secret.text).not.toContain("987654x");
      expect(seen).toHaveLength(1);
    } finally {
      await s.close();
    }
  });
});

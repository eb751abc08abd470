/**
 * The generated server's behaviour that does not depend on a store: routing over the four bindings,
 * faults, `?WSDL`, and hardening against hostile requests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiClient,
  SoapFault,
  createApiHandler,
  type ApiService,
} from "../../generated-samples/message-service/index.js";
import { canonicalXml } from "../support/canonical-xml.js";
import { listen, type Loopback } from "../support/loopback.js";

const NS = "http://api.example.com/messages/";
const calls: { op: string; input: unknown; binding: string }[] = [];
const logged: unknown[] = [];
const messages: string[] = [];
let behaviour: "ok" | "client-fault" | "crash" | "busy" | "bad-status" = "ok";

const impl: ApiService = {
  getMessages(input, ctx) {
    calls.push({ op: "GetMessages", input, binding: ctx.binding });
    if (behaviour === "client-fault")
      throw new SoapFault({ code: "Client", message: "Invalid email or password." });
    if (behaviour === "busy")
      throw new SoapFault({
        code: "Server",
        message: "Busy.",
        httpStatus: 503,
        retryAfterSeconds: 2,
      });
    if (behaviour === "bad-status")
      throw new SoapFault({
        code: "Server",
        message: "Odd.",
        httpStatus: 200,
        retryAfterSeconds: -5,
      });
    if (behaviour === "crash")
      throw new TypeError("secret internal detail at Object.<anonymous> (/srv/app.js:1:1)");
    return [{ DateArrived: "2024-01-05T10:00:00", UserId: 1, Id: 7, Transcription: "" }, null];
  },
  getMessagesInDateRange(input, ctx) {
    calls.push({ op: "GetMessagesInDateRange", input, binding: ctx.binding });
    return [];
  },
  deleteMessage(input, ctx) {
    calls.push({ op: "DeleteMessage", input, binding: ctx.binding });
  },
};

let lb: Loopback;
let nextCalled = 0;
beforeAll(async () => {
  const handler = createApiHandler(impl, {
    logger: (m, e) => {
      messages.push(m);
      logged.push(e);
    },
    limits: { maxDepth: 16, maxElements: 500 },
  });
  lb = await listen((req, res) =>
    handler(req, res, () => {
      nextCalled++;
      res.writeHead(418).end("next");
    }),
  );
});
afterAll(() => lb.close());

const soap11 = (body: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${body}</soap:Body></soap:Envelope>`;
const getMessages = `<GetMessages xmlns="${NS}"><email>a</email><password>b</password></GetMessages>`;

async function post(body: string | Buffer, headers: Record<string, string>, path = "/api.asmx") {
  const res = await fetch(lb.url + path, { method: "POST", headers, body });
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    text: await res.text(),
    headers: res.headers,
  };
}
const postSoap11 = (body: string, action = `"${NS}GetMessages"`) =>
  post(body, { "Content-Type": "text/xml; charset=utf-8", SOAPAction: action });
const faultCodeOf = (xml: string) =>
  /<faultcode>([^<]*)<|<soap:Value>([^<]*)</.exec(xml)?.slice(1).find(Boolean);

describe("routing", () => {
  it("serves all four bindings at one path", async () => {
    calls.length = 0;
    for (const port of ["ApiSoap", "ApiSoap12", "ApiHttpGet", "ApiHttpPost"] as const) {
      const client = new ApiClient({ endpoint: `${lb.url}/api.asmx`, port });
      const list = await client.getMessages({ email: "a", password: "b" });
      expect(list?.map((m) => m && String(m.DateArrived))).toEqual(["2024-01-05T10:00:00", null]);
      expect(list?.[0]?.Transcription).toBe("");
      await client.deleteMessage({ email: "a", password: "b", MessageId: 5 });
    }
    expect(calls.map((c) => `${c.op}/${c.binding}`)).toEqual([
      "GetMessages/soap11",
      "DeleteMessage/soap11",
      "GetMessages/soap12",
      "DeleteMessage/soap12",
      "GetMessages/httpGet",
      "DeleteMessage/httpGet",
      "GetMessages/httpPost",
      "DeleteMessage/httpPost",
    ]);
    expect(calls.filter((c) => c.op === "DeleteMessage").map((c) => c.input)).toEqual(
      Array(4).fill({ email: "a", password: "b", MessageId: 5 }),
    );
  });

  it("routes SOAP 1.1 by the body element when SOAPAction is missing or empty, and answers an unknown one with soap:Client", async () => {
    calls.length = 0;
    const deleteMessage = `<DeleteMessage xmlns="${NS}"><email>a</email><password>b</password><MessageId>5</MessageId></DeleteMessage>`;
    // DeleteMessage is not the first operation: a fallback to it would show.
    for (const body of [getMessages, deleteMessage]) {
      const missing = await post(soap11(body), { "Content-Type": "text/xml" });
      expect(missing.status).toBe(200);
      expect((await postSoap11(soap11(body), '""')).status).toBe(200);
    }
    expect(calls.map((c) => `${c.op}/${c.binding}`)).toEqual([
      "GetMessages/soap11",
      "GetMessages/soap11",
      "DeleteMessage/soap11",
      "DeleteMessage/soap11",
    ]);
    const unknown = await postSoap11(soap11(getMessages), `"${NS}Frobnicate"`);
    expect(unknown.status).toBe(500);
    expect(faultCodeOf(unknown.text)).toBe("soap:Client");
    expect(unknown.text).toContain(`SOAPAction: ${NS}Frobnicate.`);
  });

  it("HTTP parameter names are case-insensitive, operation names case-sensitive", async () => {
    const ok = await fetch(`${lb.url}/api.asmx/GetMessages?EMAIL=a&Password=b&extra=1`);
    expect(ok.status).toBe(200);
    const wrongCase = await fetch(`${lb.url}/api.asmx/getmessages?email=a&password=b`);
    expect(wrongCase.status).toBe(500);
    expect(await wrongCase.text()).toContain("case sensitive");
    const missing = await fetch(
      `${lb.url}/api.asmx/GetMessagesInDateRange?email=a&password=b&startDate=2024-01-01`,
    );
    expect(missing.status).toBe(500);
    expect(await missing.text()).toBe("Missing parameter: endDate.");
  });

  it("passes other paths to next() when used as middleware", async () => {
    const r = await fetch(`${lb.url}/other`);
    expect(r.status).toBe(418);
    expect(nextCalled).toBeGreaterThan(0);
  });

  it("answers a wrong method with 405 and Allow, an unsupported Content-Type with 415", async () => {
    const put = await fetch(`${lb.url}/api.asmx`, { method: "PUT", body: soap11(getMessages) });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST");
    const json = await post("{}", { "Content-Type": "application/json" });
    expect(json.status).toBe(415);
    expect(json.type).toBe("text/plain; charset=utf-8");
  });

  it("serves ?WSDL in any case with every address rewritten to the request's host", async () => {
    for (const q of ["WSDL", "wsdl", "Wsdl"]) {
      const r = await fetch(`${lb.url}/api.asmx?${q}`);
      expect(r.status).toBe(200);
      const text = await r.text();
      expect(text).not.toContain("127.0.0.1:8089");
      expect(text.match(new RegExp(`location="${lb.url}/api.asmx"`, "g"))).toHaveLength(4);
    }
  });
});

describe("faults", () => {
  it("a SoapFault from the implementation is soap:Client, soap:Sender, or 500 text/plain", async () => {
    behaviour = "client-fault";
    try {
      const r11 = await postSoap11(soap11(getMessages));
      expect([r11.status, faultCodeOf(r11.text)]).toEqual([500, "soap:Client"]);
      const r12 = await post(
        soap11(getMessages).replace(
          "http://schemas.xmlsoap.org/soap/envelope/",
          "http://www.w3.org/2003/05/soap-envelope",
        ),
        {
          "Content-Type": `application/soap+xml; charset=utf-8; action="${NS}GetMessages"`,
        },
      );
      expect([r12.status, faultCodeOf(r12.text), r12.type]).toEqual([
        500,
        "soap:Sender",
        "application/soap+xml; charset=utf-8",
      ]);
      const get = await fetch(`${lb.url}/api.asmx/GetMessages?email=a&password=b`);
      expect([get.status, get.headers.get("content-type"), await get.text()]).toEqual([
        500,
        "text/plain; charset=utf-8",
        "Invalid email or password.",
      ]);
      await expect(
        new ApiClient({ endpoint: `${lb.url}/api.asmx` }).getMessages({}),
      ).rejects.toMatchObject({
        code: "soap:Client",
        message: "Invalid email or password.",
        httpStatus: 500,
        soapVersion: "1.1",
      });
    } finally {
      behaviour = "ok";
    }
  });

  it("any other error is a generic Server fault, logged, with no internal detail in the response", async () => {
    behaviour = "crash";
    logged.length = 0;
    try {
      const r = await postSoap11(soap11(getMessages));
      expect([r.status, faultCodeOf(r.text)]).toEqual([500, "soap:Server"]);
      expect(r.text).toContain("Server was unable to process request.");
      expect(r.text).not.toMatch(/secret|TypeError|app\.js/);
      const get = await fetch(`${lb.url}/api.asmx/GetMessages?email=a&password=b`);
      expect(await get.text()).toBe("Server was unable to process request.");
      expect(logged).toHaveLength(2);
      expect(logged[0]).toBeInstanceOf(TypeError);
    } finally {
      behaviour = "ok";
    }
  });

  it("a missing required element, a bad int and a bad dateTime are Client faults naming the problem", async () => {
    calls.length = 0;
    const noId = await postSoap11(
      soap11(`<DeleteMessage xmlns="${NS}"><email>a</email></DeleteMessage>`),
      `"${NS}DeleteMessage"`,
    );
    expect([noId.status, faultCodeOf(noId.text)]).toEqual([500, "soap:Client"]);
    expect(noId.text).toContain("Missing required element MessageId.");
    const badId = await postSoap11(
      soap11(`<DeleteMessage xmlns="${NS}"><MessageId>101.0</MessageId></DeleteMessage>`),
      `"${NS}DeleteMessage"`,
    );
    expect(badId.text).toContain("'101.0' is not a valid xs:int value");
    const badDate = await postSoap11(
      soap11(
        `<GetMessagesInDateRange xmlns="${NS}"><startDate>not-a-date</startDate><endDate>2024-01-01T00:00:00</endDate></GetMessagesInDateRange>`,
      ),
      `"${NS}GetMessagesInDateRange"`,
    );
    expect([badDate.status, faultCodeOf(badDate.text)]).toEqual([500, "soap:Client"]);
    expect(badDate.text).toContain("'not-a-date' is not a valid xs:dateTime value");
    expect(calls).toEqual([]);
  });
});

describe("a fault that asks to be retried", () => {
  it("carries its status and Retry-After over SOAP and over HTTP GET", async () => {
    behaviour = "busy";
    try {
      const soap = await postSoap11(soap11(getMessages));
      expect([soap.status, soap.headers.get("retry-after"), faultCodeOf(soap.text)]).toEqual([
        503,
        "2",
        "soap:Server",
      ]);
      const get = await fetch(`${lb.url}/api.asmx/GetMessages?email=a&password=b`);
      expect([get.status, get.headers.get("retry-after"), await get.text()]).toEqual([
        503,
        "2",
        "Busy.",
      ]);
    } finally {
      behaviour = "ok";
    }
  });
});

describe("a fault with a status or Retry-After that cannot be sent", () => {
  it("is answered with 500 and no Retry-After, and the log says what was replaced", async () => {
    behaviour = "bad-status";
    messages.length = 0;
    try {
      const soap = await postSoap11(soap11(getMessages));
      expect([soap.status, soap.headers.get("retry-after"), faultCodeOf(soap.text)]).toEqual([
        500,
        null,
        "soap:Server",
      ]);
      const get = await fetch(`${lb.url}/api.asmx/GetMessages?email=a&password=b`);
      expect([get.status, get.headers.get("retry-after")]).toEqual([500, null]);
      expect(messages).toEqual(
        Array(2).fill(
          "wsdl-tsgen: Api.GetMessages threw a SoapFault with httpStatus 200, not 400–599: answered 500; " +
            "with retryAfterSeconds -5, not a whole number of seconds from 0: no Retry-After",
        ),
      );
    } finally {
      behaviour = "ok";
    }
  });
});

describe("hardening", () => {
  it("refuses a DTD without expanding any entity", async () => {
    calls.length = 0;
    const bomb =
      `<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>` +
      soap11(getMessages)
        .replace(/^<\?xml[^>]*>/, "")
        .replace("<email>a</email>", "<email>&b;</email>");
    const r = await postSoap11(bomb);
    expect(r.status).toBe(400);
    expect(faultCodeOf(r.text)).toBe("soap:Client");
    expect(r.text).toContain("DTD");
    const external = await postSoap11(
      `<?xml version="1.0"?><!DOCTYPE x SYSTEM "file:///etc/passwd"><x/>`,
    );
    expect(external.status).toBe(400);
    expect(external.text).not.toContain("root:");
    expect(calls).toEqual([]);
  });

  it("answers a body over 1 MiB with 413, declared or streamed", async () => {
    calls.length = 0;
    const big = soap11(
      `<GetMessages xmlns="${NS}"><email>${"x".repeat(1024 * 1024)}</email></GetMessages>`,
    );
    expect((await postSoap11(big)).status).toBe(413);
    // Streamed: chunked, with no Content-Length to refuse it by, so counted as it arrives.
    const piece = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent === 0) c.enqueue(new TextEncoder().encode(big.slice(0, big.indexOf("xxx"))));
        if (sent > 1024 * 1024 + piece.length) return c.close();
        sent += piece.length;
        c.enqueue(piece);
      },
    });
    const res = await fetch(lb.url + "/api.asmx", {
      method: "POST",
      headers: { "Content-Type": "text/xml; charset=utf-8", SOAPAction: `"${NS}GetMessages"` },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.text()).toContain("larger than 1048576 bytes");
    expect(calls).toEqual([]);
  });

  it("bounds element depth and count", async () => {
    // In a header entry, kept as raw XML: the limits, not the schema, stop these.
    const withHeader = (header: string) =>
      soap11(getMessages).replace("<soap:Body>", `<soap:Header>${header}</soap:Header><soap:Body>`);
    const deep = withHeader(`<h:x xmlns:h="urn:h">${"<y>".repeat(40)}${"</y>".repeat(40)}</h:x>`);
    const r = await postSoap11(deep);
    expect([r.status, faultCodeOf(r.text)]).toEqual([400, "soap:Client"]);
    expect(r.text).toContain("nesting deeper than 16");
    const many = withHeader(`<h:x xmlns:h="urn:h">${"<y/>".repeat(1000)}</h:x>`);
    const m = await postSoap11(many);
    expect([m.status, m.text]).toEqual([400, expect.stringContaining("more than 500 elements")]);
  });

  it("malformed, empty and non-XML bodies get 400 with a Client fault, never a crash", async () => {
    for (const body of [
      "",
      "not xml at all",
      "<soap:Envelope",
      soap11(getMessages).slice(0, -20),
      "\u0000\u0001",
      "<a><b></a></b>",
    ]) {
      const r = await postSoap11(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(canonicalXml(r.text)).toContain("{}faultcode");
    }
    // White space only, after a byte order mark: empty, and said so.
    const bomOnly = await postSoap11("\uFEFF \r\n");
    expect(bomOnly.status).toBe(400);
    expect(bomOnly.text).toContain("The request body is empty");
  });

  it("refuses a second Body, a second Header and a Header after the Body, before any call", async () => {
    calls.length = 0;
    const valid = soap11(getMessages);
    const body = valid.slice(valid.indexOf("<soap:Body>"), valid.indexOf("</soap:Envelope>"));
    const header = "<soap:Header></soap:Header>";
    for (const [bad, said] of [
      [valid.replace("</soap:Envelope>", `${body}</soap:Envelope>`), "a Body after its Body"],
      [valid.replace("<soap:Body>", `${header}${header}<soap:Body>`), "a Header after its Header"],
      [valid.replace("</soap:Envelope>", `${header}</soap:Envelope>`), "a Header after its Body"],
    ] as const) {
      const r = await postSoap11(bad);
      expect([r.status, faultCodeOf(r.text)], said).toEqual([400, "soap:Client"]);
      expect(r.text).toContain(said);
    }
    expect(calls).toEqual([]);
  });

  it("survives a bounded batch of random mutations of a valid request", async () => {
    const valid = soap11(getMessages);
    let seed = 42;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
    for (let i = 0; i < 150; i++) {
      const chars = [...valid];
      for (let k = 0; k < 1 + rand(4); k++)
        chars[rand(chars.length)] = String.fromCharCode(rand(128));
      const r = await postSoap11(chars.join(""));
      expect([200, 400, 500]).toContain(r.status);
      expect(r.text).not.toMatch(/\n\s+at /);
    }
    const healthy = await postSoap11(valid);
    expect(healthy.status).toBe(200);
  });
});

describe("odd requests found in review", () => {
  it("a malformed percent-encoding in the path is a 400, not a logged crash", async () => {
    logged.length = 0;
    const r = await fetch(`${lb.url}/api.asmx/Get%E0%A4%A`);
    expect(r.status).toBe(400);
    expect(await r.text()).toBe("The URL path holds a malformed percent-encoding.");
    expect(logged).toEqual([]);
  });

  it("?WSDL without a Host header brackets an IPv6 address", async (ctx) => {
    const { createServer } = await import("node:http");
    const handler = createApiHandler(impl);
    const v6 = await new Promise<import("node:http").Server>((resolve, reject) => {
      const s = createServer(handler);
      s.once("error", reject);
      s.listen(0, "::1", () => resolve(s));
    }).catch(() => undefined);
    if (!v6) {
      const why = "?WSDL over IPv6 not checked: this machine has no IPv6 loopback (::1)";
      console.log(why);
      ctx.skip(why);
      return;
    }
    try {
      const port = (v6.address() as import("node:net").AddressInfo).port;
      const { connect } = await import("node:net");
      const text = await new Promise<string>((resolve, reject) => {
        const sock = connect({ host: "::1", port }, () =>
          sock.end("GET /api.asmx?WSDL HTTP/1.0\r\n\r\n"),
        );
        let body = "";
        sock.on("data", (d: Buffer) => (body += d.toString()));
        sock.on("end", () => resolve(body));
        sock.on("error", reject);
      });
      expect(text).toContain(`location="http://[::1]:${port}/api.asmx"`);
    } finally {
      v6.close();
    }
  });
});

describe("a path the service is not at", () => {
  it("is a 404 that says where the service is", async () => {
    const alone = await listen(createApiHandler(impl));
    try {
      for (const path of ["/", "/api.asmx2", "/other/api.asmx"]) {
        const res = await fetch(alone.url + path);
        expect([res.status, await res.text()]).toEqual([
          404,
          "Not found. This service is served at /api.asmx.",
        ]);
      }
    } finally {
      await alone.close();
    }
  });
});

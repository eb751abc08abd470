/**
 * Nothing the WSDL does not describe vanishes (issue 18): the server refuses an element its schema
 * does not allow, an occurrence beyond maxOccurs and a number padded with non-XML spaces, naming
 * the element and where it is; the client keeps such elements as raw XML (reachable with
 * `undescribedOf`), or refuses them when asked to.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiClient,
  createApiHandler,
  ResponseFormatError,
  undescribedOf,
  type ApiService,
} from "../../generated-samples/message-service/index.js";
import { listen, type Loopback } from "../support/loopback.js";

const NS = "http://api.example.com/messages/";
const envelope = (body: string) =>
  `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${body}</soap:Body></soap:Envelope>`;

describe("the server refuses what the schema does not describe", () => {
  const calls: unknown[] = [];
  const impl: ApiService = {
    getMessages: (input) => void calls.push(input),
    getMessagesInDateRange: () => [],
    deleteMessage: (input) => void calls.push(input),
  };
  let lb: Loopback;
  beforeAll(async () => (lb = await listen(createApiHandler(impl))));
  afterAll(() => lb.close());

  const post = async (body: string) => {
    const res = await fetch(`${lb.url}/api.asmx`, {
      method: "POST",
      headers: { "Content-Type": "text/xml; charset=utf-8" },
      body: envelope(body),
    });
    return { status: res.status, text: await res.text() };
  };

  it("an element its operation does not declare is a Client fault naming it and where it is", async () => {
    calls.length = 0;
    const r = await post(
      `<GetMessages xmlns="${NS}"><email>a</email><Admin>true</Admin><password>b</password></GetMessages>`,
    );
    expect(r.status).toBe(500);
    expect(r.text).toContain("<faultcode>soap:Client</faultcode>");
    expect(r.text).toMatch(/Admin.*line 1, column \d+/);
    expect(calls).toEqual([]);
  });

  it("so is one inside a nested element, and a second occurrence of a single element", async () => {
    calls.length = 0;
    const twice = await post(
      `<GetMessages xmlns="${NS}"><email>a</email><email>z</email><password>b</password></GetMessages>`,
    );
    expect(twice.status).toBe(500);
    expect(twice.text).toMatch(/email.*more than once.*line 1, column \d+/);
    const nested = await post(
      `<GetMessages xmlns="${NS}"><email>a<Admin>true</Admin></email><password>b</password></GetMessages>`,
    );
    expect(nested.status).toBe(500);
    expect(nested.text).toContain("<faultcode>soap:Client</faultcode>");
    expect(nested.text).toMatch(/Admin is not allowed in email \(at line 1, column \d+\)/);
    expect(calls).toEqual([]);
  });

  it("a literal service reads href as an attribute, not as SOAP encoding's multi-reference", async () => {
    // An encoded-style reference to an element appended to the Body stood for MessageId, and
    // message 5 was deleted; in document/literal the reference is no value, the element no entry.
    calls.length = 0;
    const r = await post(
      `<DeleteMessage xmlns="${NS}"><email>a</email><password>b</password><MessageId href="#x"/></DeleteMessage><n id="x">5</n>`,
    );
    expect(r.status).toBe(500);
    expect(r.text).toContain("<faultcode>soap:Client</faultcode>");
    // The empty MessageId is what is refused: href stood for nothing.
    expect(r.text).toContain(
      "<faultstring>Invalid request: invalid value in element MessageId: '' is not a valid xs:int value",
    );
    expect(calls).toEqual([]);
  });

  it("a number padded with a non-breaking or other Unicode space is not an xs:int; XML white space is", async () => {
    calls.length = 0;
    for (const pad of ["\u00A0", "\u2003", "\u3000", "\uFEFF"]) {
      const r = await post(
        `<DeleteMessage xmlns="${NS}"><email>a</email><password>b</password><MessageId>${pad}12</MessageId></DeleteMessage>`,
      );
      expect(r.status, JSON.stringify(pad)).toBe(500);
      expect(r.text).toContain("<faultcode>soap:Client</faultcode>");
    }
    expect(calls).toEqual([]);
    const spaced = await post(
      `<DeleteMessage xmlns="${NS}"><email>a</email><password>b</password><MessageId>\n 12\t</MessageId></DeleteMessage>`,
    );
    expect(spaced.status).toBe(200);
    expect(calls).toEqual([{ email: "a", password: "b", MessageId: 12 }]);
  });
});

describe("the client keeps what the schema does not describe, or refuses it", () => {
  let answer = "";
  let lb: Loopback;
  beforeAll(
    async () =>
      (lb = await listen((_req, res) => {
        res.writeHead(200, { "Content-Type": "text/xml; charset=utf-8" }).end(answer);
      })),
  );
  afterAll(() => lb.close());

  const respond = (messages: string) =>
    (answer = envelope(
      `<GetMessagesResponse xmlns="${NS}"><GetMessagesResult>${messages}</GetMessagesResult></GetMessagesResponse>`,
    ));
  const message = (extra: string) =>
    `<Messages><DateArrived>2024-01-05T10:00:00</DateArrived><UserId>1</UserId>${extra}<Id>7</Id></Messages>`;
  const client = (undescribed?: "keep" | "refuse") =>
    new ApiClient({ endpoint: `${lb.url}/api.asmx`, ...(undescribed ? { undescribed } : {}) });

  it("by default keeps an undeclared element as raw XML on the object it was found in", async () => {
    respond(message(`<Priority level="high">urgent<b>!</b></Priority>`));
    const list = await client().getMessages({ email: "a", password: "b" });
    const m = list![0]!;
    expect(m.Id).toBe(7);
    expect(Object.keys(m)).not.toContain("Priority");
    const kept = undescribedOf(m);
    expect(kept.map((n) => [n.ns, n.local, n.attrs])).toEqual([
      [NS, "Priority", { level: "high" }],
    ]);
    expect(kept[0]!.children[0]).toBe("urgent");
  });

  it("keeps a second occurrence of a single element, the first being the value", async () => {
    respond(message(`<UserId>2</UserId>`));
    const m = (await client().getMessages({ email: "a", password: "b" }))![0]!;
    expect(m.UserId).toBe(1);
    expect(undescribedOf(m).map((n) => [n.local, n.children])).toEqual([["UserId", ["2"]]]);
  });

  it("with undescribed: 'refuse', rejects with a ResponseFormatError naming the element", async () => {
    respond(message(`<Priority>urgent</Priority>`));
    const e = await client("refuse")
      .getMessages({ email: "a", password: "b" })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ResponseFormatError);
    expect(String((e as Error).message)).toMatch(/Priority.*line 1, column \d+/);
  });

  it("an object with nothing undescribed has nothing kept", async () => {
    respond(message(""));
    const m = (await client().getMessages({ email: "a", password: "b" }))![0]!;
    expect(undescribedOf(m)).toEqual([]);
    expect(JSON.parse(JSON.stringify(m))).toEqual({
      DateArrived: "2024-01-05T10:00:00",
      UserId: 1,
      Id: 7,
    });
  });
});

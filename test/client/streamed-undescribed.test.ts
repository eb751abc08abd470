/**
 * Content the schema does not describe beside the items of a streamed result follows the whole
 * call's rule (the client's `undescribed` option): kept, the stream yields every item and
 * `undescribedOf(iterable)` lists, after the loop, what the whole call's array keeps, in the same
 * order; refused, the stream fails with the whole call's error (counted once items have come).
 * `strict` does not change either. Over SOAP and HTTP GET/POST, before, between and after items.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiClient,
  ResponseFormatError,
  StreamedResultError,
  undescribedOf,
  type ApiPortName,
} from "../../generated-samples/message-service/index.js";
import { listen, type Loopback } from "../support/loopback.js";
import { ALICE, item, NS, SOAP11 } from "./streamed-support.js";

const extra = (n: string) => `<Extra${n} xmlns="urn:extra" a="1">text ${n}<b/></Extra${n}>`;

/** Where an undescribed element stands: in the array element, the wrapper, or the SOAP Body. */
type Place =
  | "before items"
  | "between items"
  | "after items"
  | "in the wrapper, before the result"
  | "in the wrapper, after the result"
  | "in the Body, after the wrapper";

/** The items (three) with the extras at `places`: the array element's content. */
function array(places: readonly Place[]): string {
  const at = (p: Place) => (places.includes(p) ? extra(p.replace(/\W/g, "")) : "");
  return at("before items") + item(0) + item(1) + at("between items") + item(2) + at("after items");
}

/** The response of GetMessages over `soap` or HTTP, with extras at `places`. */
function body(soap: boolean, places: readonly Place[]): string {
  const at = (p: Place) => (places.includes(p) ? extra(p.replace(/\W/g, "")) : "");
  if (!soap)
    return `<?xml version="1.0" encoding="utf-8"?><ArrayOfMessages xmlns="${NS}">${array(places)}</ArrayOfMessages>`;
  return (
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11}"><soap:Body>` +
    `<GetMessagesResponse xmlns="${NS}">${at("in the wrapper, before the result")}` +
    `<GetMessagesResult>${array(places)}</GetMessagesResult>` +
    `${at("in the wrapper, after the result")}</GetMessagesResponse>` +
    `${at("in the Body, after the wrapper")}</soap:Body></soap:Envelope>`
  );
}

let server: Loopback;
/** What the server answers next (the places of its extras). */
let places: readonly Place[] = [];

beforeAll(async () => {
  server = await listen((req, res) => {
    req.resume();
    req.once("end", () => {
      res.writeHead(200, { "Content-Type": "text/xml; charset=utf-8" });
      const soap = req.method === "POST" && !req.url?.endsWith("/GetMessages");
      res.end(body(soap, places));
    });
  });
});
afterAll(() => server.close());

const client = (port: ApiPortName, undescribed: "keep" | "refuse", strict: boolean) =>
  new ApiClient({ endpoint: `${server.url}/api.asmx`, port, undescribed, strict });

/** The stream's items and what it kept, or its failure (with the items yielded before it). */
async function streamed(c: ApiClient) {
  const items = c.stream.getMessages(ALICE);
  const ids: unknown[] = [];
  try {
    for await (const m of items) ids.push(m?.Id);
    return { ids, kept: undescribedOf(items) };
  } catch (error) {
    return { ids, error };
  }
}

const ARRAY_PLACES: readonly Place[] = ["before items", "between items", "after items"];
const SOAP_PLACES: readonly Place[] = [
  ...ARRAY_PLACES,
  "in the wrapper, before the result",
  "in the wrapper, after the result",
  "in the Body, after the wrapper",
];
const CASES: (readonly [ApiPortName, Place])[] = [
  ...SOAP_PLACES.map((place) => ["ApiSoap", place] as const),
  ...(["ApiHttpGet", "ApiHttpPost"] as const).flatMap((port) =>
    ARRAY_PLACES.map((place) => [port, place] as const),
  ),
];

describe.each([true, false])("undescribed content beside streamed items (strict: %s)", (strict) => {
  it.each(CASES)("kept over %s, %s: where the whole call keeps it", async (port, place) => {
    places = [place];
    const c = client(port, "keep", strict);
    const whole = await c.getMessages(ALICE);
    const got = await streamed(c);
    expect(got.ids).toEqual([0, 1, 2]);
    expect(undescribedOf(whole)).toHaveLength(1);
    expect(got.kept).toEqual(undescribedOf(whole));
    expect(got.kept?.[0]?.local).toBe(`Extra${place.replace(/\W/g, "")}`);
  });

  it.each(CASES)("refused over %s, %s: as the whole call refuses it", async (port, place) => {
    places = [place];
    const c = client(port, "refuse", strict);
    const whole = await c.getMessages(ALICE).catch((e: unknown) => e);
    expect(whole).toBeInstanceOf(ResponseFormatError);
    const got = await streamed(c);
    const name = `Extra${place.replace(/\W/g, "")}`;
    // The whole call's error says a line; the stream's, which keeps no bytes read, a byte offset.
    const why = (e: unknown) => (e as Error).message.replace(/ \(at (line|byte) .*$/, "");
    if (got.ids.length === 0) {
      expect(got.error).toBeInstanceOf(ResponseFormatError);
      expect(why(got.error)).toBe(why(whole));
    } else {
      expect(got.error).toBeInstanceOf(StreamedResultError);
      expect((got.error as StreamedResultError).itemsYielded).toBe(got.ids.length);
      expect(why((got.error as StreamedResultError).cause)).toBe(why(whole));
    }
    expect((whole as Error).message).toContain(`{urn:extra}${name}`);
  });
});

describe("undescribed content beside streamed items, all at once", () => {
  it("is kept in the whole call's order, over SOAP", async () => {
    places = SOAP_PLACES;
    const c = client("ApiSoap", "keep", true);
    const whole = undescribedOf(await c.getMessages(ALICE)).map((n) => n.local);
    const got = await streamed(c);
    expect(got.ids).toEqual([0, 1, 2]);
    expect(whole).toHaveLength(6);
    expect(got.kept?.map((n) => n.local)).toEqual(whole);
  });

  it("is kept on the iterable of a response read whole (not streamable: another charset)", async () => {
    places = ARRAY_PLACES;
    const latin1 = await listen((req, res) => {
      req.resume();
      req.once("end", () => {
        res.writeHead(200, { "Content-Type": "text/xml; charset=iso-8859-1" });
        res.end(body(false, places).replace('encoding="utf-8"', 'encoding="iso-8859-1"'));
      });
    });
    try {
      const c = new ApiClient({ endpoint: `${latin1.url}/api.asmx`, port: "ApiHttpGet" });
      const got = await streamed(c);
      expect(got.ids).toEqual([0, 1, 2]);
      expect(got.kept?.map((n) => n.local)).toEqual([
        "Extrabeforeitems",
        "Extrabetweenitems",
        "Extraafteritems",
      ]);
    } finally {
      await latin1.close();
    }
  });
});

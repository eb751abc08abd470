/**
 * The generated client against the recordings of a genuine ASMX server: its requests are equivalent
 * to the recorded ones, the recorded responses decode to exactly the seed's values, and every
 * recorded error surfaces as the right error.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiClient,
  HttpBindingError,
  SoapFault,
  XsdDateTime,
  type ApiPortName,
} from "../../generated-samples/message-service/index.js";
import { captureNames, header, loadCapture, type Capture } from "../support/captures.js";
import { canonicalXml } from "../support/canonical-xml.js";
import { asPlain, seedMessages } from "../support/expected.js";
import { recordingServer, type RecordedRequest } from "../support/loopback.js";

const ALICE = { email: "alice@example.com", password: "alice-pass" };
const RANGE = { ...ALICE, startDate: "2024-01-10T00:00:00", endDate: "2024-02-29T23:59:59" };

const STYLES: Record<string, ApiPortName> = {
  soap11: "ApiSoap",
  soap12: "ApiSoap12",
  httpget: "ApiHttpGet",
  httppost: "ApiHttpPost",
};

let current: Capture | undefined;
let server: Awaited<ReturnType<typeof recordingServer>>;

beforeAll(async () => {
  server = await recordingServer((_req, res) => {
    const r = current!.response;
    const headers: Record<string, string> = {};
    const ct = header(r, "content-type");
    if (ct) headers["Content-Type"] = ct;
    res.writeHead(r.status, headers);
    res.end(r.body);
  });
});
afterAll(() => server.close());

async function call(port: ApiPortName, op: string, capture: Capture): Promise<unknown> {
  current = capture;
  const client = new ApiClient({ endpoint: `${server.url}/api.asmx`, port });
  if (op === "GetMessages") return client.getMessages(ALICE);
  if (op === "GetMessagesInDateRange") return client.getMessagesInDateRange(RANGE);
  return client.deleteMessage({ ...ALICE, MessageId: 101 });
}

function pairs(s: string): [string, string][] {
  return [...new URLSearchParams(s)];
}

function expectEquivalentRequest(sent: RecordedRequest, recorded: Capture["request"]): void {
  expect(sent.method).toBe(recorded.method);
  const [sentPath, sentQuery = ""] = sent.url.split("?");
  const [recPath, recQuery = ""] = recorded.target.split("?");
  expect(sentPath).toBe(recPath);
  expect(pairs(sentQuery)).toEqual(pairs(recQuery));
  expect(sent.headers["content-type"]).toBe(header(recorded, "content-type"));
  expect(sent.headers["soapaction"]).toBe(header(recorded, "soapaction"));
  const recBody = recorded.body.toString("utf8");
  if (recBody.trim().startsWith("<"))
    expect(canonicalXml(sent.body.toString("utf8"))).toBe(canonicalXml(recBody));
  else expect(pairs(sent.body.toString("utf8"))).toEqual(pairs(recBody));
}

describe("requests and responses of every ok-* exchange", () => {
  for (const style of Object.keys(STYLES)) {
    for (const op of ["GetMessages", "GetMessagesInDateRange", "DeleteMessage"]) {
      const name = `ok-${style}-${op}`;
      it(name, async () => {
        const capture = loadCapture(name);
        server.requests.length = 0;
        const result = await call(STYLES[style]!, op, capture);
        expect(server.requests).toHaveLength(1);
        expectEquivalentRequest(server.requests[0]!, capture.request);
        if (op === "DeleteMessage") {
          expect(result).toBeUndefined();
          return;
        }
        const list = result as { DateArrived: unknown }[];
        for (const m of list) expect(m.DateArrived).toBeInstanceOf(XsdDateTime);
        const ids = op === "GetMessages" ? undefined : [102, 103, 104];
        expect(asPlain(list)).toEqual(seedMessages(ALICE.email, ids));
      });
    }
  }

  it("ok-soap12-noaction responses decode the same as with an action", async () => {
    for (const op of ["GetMessages", "GetMessagesInDateRange"]) {
      const result = await call("ApiSoap12", op, loadCapture(`ok-soap12-noaction-${op}`));
      expect(asPlain(result as { DateArrived: unknown }[])).toEqual(
        seedMessages(ALICE.email, op === "GetMessages" ? undefined : [102, 103, 104]),
      );
    }
  });

  it("keeps the exact lexical dateTime, special characters, and empty versus absent", async () => {
    const list = (await call(
      "ApiSoap",
      "GetMessages",
      loadCapture("ok-soap11-GetMessages"),
    )) as Record<string, unknown>[];
    const byId = new Map(list.map((m) => [m["Id"], m]));
    expect(String(byId.get(105)!["DateArrived"])).toBe("2024-03-10T12:00:00.1234567");
    expect(String(byId.get(102)!["DateArrived"])).toBe("2024-01-15T08:30:15.25");
    expect(byId.get(102)!["MessageText"]).toBe(
      "Fish & chips <tonight>? \"Yes\" 'no' – Grüße, ñandú, 日本",
    );
    expect(byId.get(103)!["Transcription"]).toBe("");
    expect("Sender" in byId.get(103)!).toBe(false);
    expect(byId.get(105)!["Transcription"]).toBe("line one\nline two");
    expect(byId.get(105)!["MessageText"]).toBe("  leading and trailing spaces  ");
  });

  it("an empty result list is [] over SOAP and over HTTP", async () => {
    expect(
      await call(
        "ApiSoap",
        "GetMessagesInDateRange",
        loadCapture("ok-soap11-GetMessagesInDateRange-empty"),
      ),
    ).toEqual([]);
    expect(
      await call(
        "ApiHttpGet",
        "GetMessagesInDateRange",
        loadCapture("ok-httpget-GetMessagesInDateRange-empty"),
      ),
    ).toEqual([]);
  });
});

/** Which client port and operation a recorded request corresponds to. */
function portAndOp(c: Capture): [ApiPortName, string] {
  const r = c.request;
  const ct = header(r, "content-type") ?? "";
  const ops = ["GetMessagesInDateRange", "GetMessages", "DeleteMessage"];
  let port: ApiPortName;
  if (r.target.startsWith("/api.asmx/")) port = r.method === "GET" ? "ApiHttpGet" : "ApiHttpPost";
  else
    port =
      c.name.includes("soap12") || ct.startsWith("application/soap+xml") ? "ApiSoap12" : "ApiSoap";
  const text = `${r.target} ${header(r, "soapaction") ?? ""} ${ct} ${r.body.toString("utf8")}`;
  const op = ops.find((o) => text.includes(o)) ?? "GetMessages";
  return [port, op];
}

describe("every err-* exchange surfaces as the recorded fault or error", () => {
  for (const name of captureNames("err-")) {
    it(name, async () => {
      const capture = loadCapture(name);
      const [port, op] = portAndOp(capture);
      const outcome = await call(port, op, capture).then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      const res = capture.response;
      const body = res.body.toString("utf8");
      if (res.status === 200) {
        expect(outcome.ok).toBe(true);
        return;
      }
      expect(outcome.ok).toBe(false);
      const error = (outcome as { error: unknown }).error;
      const fault = /<(?:soap:)?Fault>/.test(body);
      if (fault) {
        expect(error).toBeInstanceOf(SoapFault);
        const f = error as SoapFault;
        const code = /<faultcode>([^<]*)<|<soap:Value>([^<]*)</.exec(body)!;
        expect(f.code).toBe(code[1] ?? code[2]);
        expect(f.httpStatus).toBe(res.status);
        expect(f.soapVersion).toBe(
          body.includes("http://www.w3.org/2003/05/soap-envelope") ? "1.2" : "1.1",
        );
        expect(f.message.length).toBeGreaterThan(0);
        expect(body).toContain(
          f.message
            .split("\n")[0]!
            .replace(/&/g, "&amp;")
            .replace(/</g, "&lt;")
            .replace(/>/g, "&gt;"),
        );
      } else {
        expect(error).toBeInstanceOf(HttpBindingError);
        expect((error as HttpBindingError).status).toBe(res.status);
        expect((error as HttpBindingError).body).toBe(body);
      }
    });
  }
});

/**
 * Our Message Retrieval Service against the recordings of the genuine ASMX one: every recorded
 * request replayed against our server gets the same status, Content-Type and envelope shape (XML
 * compared canonically), and every error the same status and fault code, without a stack trace and
 * with the database unchanged. Where the recordings' README says our servers deliberately differ,
 * the expected outcome is that improvement, listed in DIFFERENCES with its reason.
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../examples/message-service/server.js";
import { openSqlite } from "../../examples/message-service/store.js";
import { captureNames, header, loadCapture, SEED } from "../support/captures.js";
import { canonicalXml } from "../support/canonical-xml.js";
import { login } from "../support/login.js";

interface Expected {
  readonly status: number;
  readonly contentType?: string | null;
  readonly faultCode?: string;
  /** A capture whose recorded 200 body ours must match (canonically) instead. */
  readonly bodyOf?: string;
  readonly reason: string;
}

/** The deliberate differences (fixtures/message-service/asmx/README.md, "Where our servers deliberately differ", and the issue). */
const DIFFERENCES: Record<string, Expected> = {
  "err-missing-endDate-soap11": {
    status: 500,
    faultCode: "soap:Client",
    reason: "difference 2: a missing required element is a Client fault naming it",
  },
  "err-missing-endDate-soap12": { status: 500, faultCode: "soap:Sender", reason: "difference 2" },
  "err-missing-MessageId-soap11": { status: 500, faultCode: "soap:Client", reason: "difference 2" },
  "err-missing-MessageId-soap12": { status: 500, faultCode: "soap:Sender", reason: "difference 2" },
  "err-malformed-soap11": {
    status: 400,
    faultCode: "soap:Client",
    reason: "difference 3: 400 with a fault that says what is wrong",
  },
  "err-malformed-soap12": { status: 400, faultCode: "soap:Sender", reason: "difference 3" },
  "err-notxml-soap11": { status: 400, faultCode: "soap:Client", reason: "difference 3" },
  "err-emptybody-soap11": { status: 400, faultCode: "soap:Client", reason: "difference 3" },
  "err-emptybody-soap12": { status: 400, faultCode: "soap:Sender", reason: "difference 3" },
  "err-soap11-wrongctype": {
    status: 415,
    contentType: "text/plain; charset=utf-8",
    reason: "difference 4: unsupported Content-Type is 415 plain text",
  },
  "err-soap11env-soapxml": {
    status: 415,
    contentType: "text/plain; charset=utf-8",
    reason: "difference 4: a short plain-text body",
  },
  "err-put-soap11": {
    status: 405,
    contentType: "text/plain; charset=utf-8",
    reason: "difference 4: 405 with Allow and plain text",
  },
  "err-httpget-on-root": {
    status: 500,
    contentType: "text/plain; charset=utf-8",
    reason: "difference 4: plain text, not an HTML page",
  },
  "err-unknownid-soap11": {
    status: 500,
    faultCode: "soap:Client",
    reason: "difference 6: deleting an id that is not the caller's is a Client fault",
  },
  "err-unknownid-soap12": { status: 500, faultCode: "soap:Sender", reason: "difference 6" },
  "err-foreignid-soap11": { status: 500, faultCode: "soap:Client", reason: "difference 6" },
  "soapaction-empty-soap11": {
    status: 200,
    contentType: "text/xml; charset=utf-8",
    // The same GetMessages body as this capture's, answered as ASMX answers it with its SOAPAction.
    bodyOf: "ok-soap11-GetMessages",
    reason: "the issue: an empty SOAPAction falls back to the body element",
  },
};

let template: string;
const dirs: string[] = [];
beforeAll(async () => {
  // One seeded database file; each case gets a fresh copy, as each recording started from the seed.
  const dir = mkdtempSync(path.join(tmpdir(), "mrs-replay-"));
  dirs.push(dir);
  template = path.join(dir, "template.db");
  const store = openSqlite(template);
  await store.seed(SEED);
  await store.close();
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function snapshot(dbPath: string): Promise<unknown> {
  const store = openSqlite(dbPath);
  try {
    return await Promise.all(
      SEED.accounts.map(async (a) =>
        store.listMessages((await login(store, a.email, a.password))!),
      ),
    );
  } finally {
    await store.close();
  }
}

async function replay(name: string) {
  const capture = loadCapture(name);
  const dir = mkdtempSync(path.join(tmpdir(), "mrs-case-"));
  dirs.push(dir);
  const db = path.join(dir, "messages.db");
  copyFileSync(template, db);
  const server = await startServer({ port: 0, host: "127.0.0.1", dbPath: db });
  try {
    const base = new URL(server.url).origin;
    const headers: Record<string, string> = {};
    for (const [k, v] of capture.request.headers)
      if (!["host", "content-length", "connection", "user-agent", "accept"].includes(k))
        headers[k] = v;
    const method = capture.request.method;
    const res = await fetch(base + capture.request.target, {
      method,
      headers,
      ...(method === "GET" || method === "HEAD" ? {} : { body: capture.request.body }),
    });
    const text = await res.text();
    return {
      capture,
      status: res.status,
      contentType: res.headers.get("content-type"),
      text,
      db,
      allow: res.headers.get("allow"),
    };
  } finally {
    await server.close();
  }
}

const faultCode = (xml: string) =>
  /<faultcode>([^<]*)<|<soap:Value>([^<]*)</.exec(xml)?.slice(1).find(Boolean);
const mutates = (name: string) =>
  /DeleteMessage$|spacedid|plusid/.test(name) && !name.startsWith("err-");
const STACK = /\n\s+at |System\.[A-Z]|Exception|\[0x[0-9a-f]+\]/;

describe("replaying the recorded requests against our server", () => {
  const names = captureNames().filter((n) => !["wsdl", "disco", "docpage-GET"].includes(n));
  for (const name of names) {
    it(name, async () => {
      const { capture, status, contentType, text, db, allow } = await replay(name);
      const recorded = capture.response;
      const recordedBody = recorded.body.toString("utf8");
      const expected: Expected = DIFFERENCES[name] ?? {
        status: recorded.status,
        contentType: header(recorded, "content-type") ?? null,
        ...(/<(soap:)?Fault>/.test(recordedBody) ? { faultCode: faultCode(recordedBody)! } : {}),
        reason: "same as ASMX",
      };
      expect(status, expected.reason).toBe(expected.status);
      if (expected.contentType !== undefined)
        expect(contentType, expected.reason).toBe(expected.contentType);
      if (expected.faultCode) expect(faultCode(text), expected.reason).toBe(expected.faultCode);
      expect(text).not.toMatch(STACK);
      if (status === 405) expect(allow).toBe("GET, POST");
      if (status === 200 && !DIFFERENCES[name]) {
        if (recordedBody.trim() === "") expect(text).toBe("");
        else expect(canonicalXml(text)).toBe(canonicalXml(recordedBody));
      }
      if (expected.bodyOf) {
        const other = loadCapture(expected.bodyOf).response.body.toString("utf8");
        expect(canonicalXml(text), expected.reason).toBe(canonicalXml(other));
      }
      if (!mutates(name) || status !== 200)
        expect(await snapshot(db), "the database is unchanged").toEqual(await snapshot(template));
      else expect(await snapshot(db)).not.toEqual(await snapshot(template));
    });
  }
});

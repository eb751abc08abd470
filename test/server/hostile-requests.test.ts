/**
 * Requests a hostile or broken client sends, each found by fuzzing or probing the running service
 * (issue 19): each gets the status and fault ASMX sends, or the improvement
 * fixtures/message-service/asmx/README.md promises, and nothing user-supplied reaches the log.
 */
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createApiHandler,
  type ApiService,
} from "../../generated-samples/message-service/index.js";
import { canonicalXml } from "../support/canonical-xml.js";
import { loadCapture } from "../support/captures.js";

const NS = "http://api.example.com/messages/";
const logged: string[] = [];
const impl: ApiService = {
  getMessages: () => [],
  getMessagesInDateRange: () => [],
  deleteMessage: () => {},
};
const handler = createApiHandler(impl, {
  logger: (message, error) => logged.push(`${message} ${String(error)}`),
});

let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer(handler);
  server.on("checkContinue", handler.checkContinue);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** Sends `data` on a fresh connection and gives all it receives until the server closes it. */
function exchange(data: string | Buffer, more?: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let out = "";
    let sent = false;
    socket.on("data", (d) => {
      out += d.toString("latin1");
      if (more && !sent && out.includes("\r\n\r\n")) {
        sent = true;
        socket.end(more);
      }
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(out));
    socket.write(data);
    if (!more) socket.end();
  });
}

interface Answer {
  readonly status: number;
  readonly headers: string;
  readonly body: string;
}

const parse = (raw: string): Answer => {
  const at = raw.indexOf("\r\n\r\n");
  return {
    status: Number(/^HTTP\/1\.1 (\d+)/.exec(raw)?.[1]),
    headers: raw.slice(0, at),
    body: Buffer.from(raw.slice(at + 4), "latin1").toString("utf8"),
  };
};

const soapPost = async (body: string | Buffer, contentType = "text/xml; charset=utf-8") => {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  const head =
    `POST /api.asmx HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${contentType}\r\n` +
    `SOAPAction: "${NS}GetMessages"\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`;
  return parse(await exchange(Buffer.concat([Buffer.from(head), bytes])));
};

const envelope11 = (body: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${body}</soap:Body></soap:Envelope>`;
const envelope12 = (body: string) =>
  `<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body>${body}</soap:Body></soap:Envelope>`;
const getMessages = `<GetMessages xmlns="${NS}"><email>a</email><password>b</password></GetMessages>`;
const faultCode = (xml: string) =>
  /<faultcode>([^<]*)<|<soap:Value>([^<]*)</.exec(xml)?.slice(1).find(Boolean);

describe("a malformed SOAP body is a 400 Client fault of the request's version", () => {
  it("when the parse error would quote a NUL or another control character", async () => {
    logged.length = 0;
    for (const bad of [`<GetMessages\u0000 xmlns="${NS}"/>`, `<Get\u0001Messages/>`]) {
      const r = await soapPost(envelope11(bad));
      expect([r.status, faultCode(r.body)], JSON.stringify(bad)).toEqual([400, "soap:Client"]);
      expect(canonicalXml(r.body)).toContain("{}faultstring");
    }
    expect(logged).toEqual([]);
  });

  it("when a UTF-16 body is labelled UTF-8, and the fault says what the body looks like", async () => {
    const r = await soapPost(Buffer.from(envelope11(getMessages), "utf16le"));
    expect([r.status, faultCode(r.body)]).toEqual([400, "soap:Client"]);
    expect(r.body).toContain("UTF-16");
    expect(logged).toEqual([]);
  });

  it("when the body is not valid UTF-8, in SOAP 1.1 and in SOAP 1.2", async () => {
    const cut = (xml: string) =>
      Buffer.concat([Buffer.from(xml.replace("<email>a", "<email>")), Buffer.from([0xff, 0xfe])]);
    const r11 = await soapPost(cut(envelope11(getMessages)));
    expect([r11.status, faultCode(r11.body)]).toEqual([400, "soap:Client"]);
    expect(r11.headers).toMatch(/content-type: text\/xml/i);
    const r12 = await soapPost(cut(envelope12(getMessages)), "application/soap+xml; charset=utf-8");
    expect([r12.status, faultCode(r12.body)]).toEqual([400, "soap:Sender"]);
    expect(r12.headers).toMatch(/content-type: application\/soap\+xml/i);
  });

  it("when an XML declaration follows white space, which XML 1.0 does not allow", async () => {
    const r = await soapPost(`  \n${envelope11(getMessages)}`);
    expect([r.status, faultCode(r.body)]).toEqual([400, "soap:Client"]);
    expect(r.body).toContain("XML declaration");
    // After a byte order mark it is where it belongs.
    const bom = await soapPost(`\uFEFF${envelope11(getMessages)}`);
    expect(bom.status).toBe(200);
  });
});

describe("input quoted in a fault is bounded", () => {
  it("a 500 KB element name comes back as at most about 200 characters of it", async () => {
    const name = `x${"y".repeat(500_000)}`;
    const r = await soapPost(envelope11(`<${name} xmlns="urn:q"/>`));
    expect([r.status, faultCode(r.body)]).toEqual([500, "soap:Client"]);
    expect(r.body).toContain("xyyy");
    expect(r.body.length).toBeLessThan(1500);
  });

  it("so is a long SOAPAction, an HTTP operation name and a parameter value", async () => {
    const long = "z".repeat(10_000);
    const action = parse(
      await exchange(
        `POST /api.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nSOAPAction: "${long}"\r\n` +
          `Content-Length: ${envelope11(getMessages).length}\r\nConnection: close\r\n\r\n` +
          envelope11(getMessages),
      ),
    );
    expect(action.status).toBe(500);
    expect(action.body.length).toBeLessThan(1500);
    const op = parse(await exchange(`GET /api.asmx/${long} HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect([op.status, op.body.length < 1500]).toEqual([500, true]);
    const id = parse(
      await exchange(
        `GET /api.asmx/DeleteMessage?email=a&password=b&MessageId=${long} HTTP/1.1\r\nHost: x\r\n\r\n`,
      ),
    );
    expect([id.status, id.body.length < 1500]).toEqual([500, true]);
    // A value with spaces in it is clipped where it is quoted: the sentence still ends.
    const spaced = parse(
      await exchange(
        `GET /api.asmx/DeleteMessage?email=a&password=b&MessageId=${"12+".repeat(3000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      ),
    );
    expect(spaced.body).toMatch(
      /^Invalid value for parameter MessageId: '12 12 .{150,220}…' is not a valid xs:int value/,
    );
  });
});

describe("the request line and the transfer", () => {
  it("a malformed URL is a 400, and neither it nor its query is logged", async () => {
    logged.length = 0;
    const r = parse(
      await exchange(`GET //[/api.asmx?password=hunter2 HTTP/1.1\r\nHost: x\r\n\r\n`),
    );
    expect(r.status).toBe(400);
    expect(r.body).not.toContain("hunter2");
    expect(logged).toEqual([]);
  });

  it("a client that stops sending mid-body or sends a bad chunk is not an unexpected error", async () => {
    logged.length = 0;
    await new Promise<void>((resolve) => {
      const s = connect(port, "127.0.0.1", () => {
        s.write(
          `POST /api.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Length: 1000\r\n\r\n<soap:`,
        );
        setTimeout(() => s.destroy(), 50);
      });
      s.on("close", () => resolve());
    });
    await exchange(
      `POST /api.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n<soap\r\nzz\r\n`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logged).toEqual([]);
  });

  it("Expect: 100-continue with a body over the limit gets the 413 without a 100 Continue", async () => {
    const raw = await exchange(
      `POST /api.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Length: 5000000\r\n` +
        `Expect: 100-continue\r\n\r\n`,
    );
    expect(raw).not.toContain("100 Continue");
    expect(parse(raw).status).toBe(413);
  });

  it("Expect: 100-continue within the limit gets 100 Continue, then the answer", async () => {
    const body = Buffer.from(envelope11(getMessages));
    const raw = await exchange(
      `POST /api.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nSOAPAction: "${NS}GetMessages"\r\n` +
        `Content-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
      body,
    );
    expect(raw).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK/);
  });
});

describe("documents ASMX serves beside the service", () => {
  it("?disco is the DISCO document, with this server's addresses", async () => {
    const r = parse(await exchange(`GET /api.asmx?disco HTTP/1.1\r\nHost: localhost:81\r\n\r\n`));
    expect([r.status, /content-type: ([^\r]*)/i.exec(r.headers)?.[1]]).toEqual([
      200,
      "text/xml; charset=utf-8",
    ]);
    const recorded = loadCapture("disco")
      .response.body.toString("utf8")
      .replaceAll("127.0.0.1:8089", "localhost:81");
    expect(canonicalXml(r.body)).toBe(canonicalXml(recorded));
  });

  it("?xsd=N or ?wsdl=N naming no document is a 404", async () => {
    for (const q of ["xsd=999", "wsdl=3", "XSD=1"]) {
      const r = parse(await exchange(`GET /api.asmx?${q} HTTP/1.1\r\nHost: x\r\n\r\n`));
      expect(r.status, q).toBe(404);
    }
  });

  it("answers that hold account data are not stored by caches", async () => {
    const r = await soapPost(envelope11(getMessages));
    expect(r.status).toBe(200);
    expect(r.headers).toMatch(/cache-control: no-store/i);
  });
});

/**
 * Header entries the WSDL does not declare. WS-Security UsernameToken: the client sends it in a `wsse:Security` header the WSDL does not
 * declare (`wsSecurity`, PasswordText or PasswordDigest); a generated server whose handler
 * `understands` it hands it to the implementation, which reads it (`usernameToken`) and checks it
 * (`passwordMatches`); without `understands`, SOAP's MustUnderstand fault. And any others, written
 * by `extraSoapHeaders` (WS-Addressing, a vendor's session header).
 */
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import {
  ApiClient,
  createApiHandler,
  SoapFault,
  type ApiService,
} from "../../generated-samples/message-service/index.js";
import { nodeText } from "../../runtime/src/internal.js";
import {
  passwordMatches,
  usernameToken,
  WSSE_NS,
  type ReceivedUsernameToken,
  type SoapRequestInfo,
} from "../../runtime/src/index.js";
import { serverPerTest } from "../support/loopback.js";

const servers = serverPerTest(afterEach);
const USER = "svc&<user>";
const PASSWORD = "s3cr&t <pw>";
const ANY = { email: "alice@example.com", password: "alice-pass" };

/** An implementation that answers only a token carrying PASSWORD for USER; it keeps the tokens it saw. */
function service(seen: ReceivedUsernameToken[]): ApiService {
  const check = (elements: Parameters<typeof usernameToken>[0]) => {
    const token = usernameToken(elements);
    if (token) seen.push(token);
    if (!token || token.username !== USER || !passwordMatches(token, PASSWORD))
      throw new SoapFault({ code: "Client", message: "Invalid credentials." });
  };
  return {
    getMessages: (_input, ctx) => (check(ctx.soapHeaderElements), []),
    getMessagesInDateRange: (_input, ctx) => (check(ctx.soapHeaderElements), []),
    deleteMessage: (_input, ctx) => void check(ctx.soapHeaderElements),
  };
}

const understandsSecurity = (ns: string, local: string) => ns === WSSE_NS && local === "Security";

describe("WS-Security UsernameToken", () => {
  it("PasswordText and PasswordDigest reach the implementation and pass its check, over SOAP 1.1 and 1.2", async () => {
    const seen: ReceivedUsernameToken[] = [];
    const server = await servers.serve(
      createApiHandler(service(seen), { understands: understandsSecurity }),
    );
    for (const port of ["ApiSoap", "ApiSoap12"] as const) {
      for (const passwordType of ["text", "digest"] as const) {
        const client = new ApiClient({
          endpoint: `${server.url}/api.asmx`,
          port,
          wsSecurity: { username: USER, password: PASSWORD, passwordType },
        });
        expect(await client.getMessages(ANY), `${port} ${passwordType}`).toEqual([]);
      }
    }
    expect(seen.map((t) => [t.username, t.passwordType])).toEqual([
      [USER, "text"],
      [USER, "digest"],
      [USER, "text"],
      [USER, "digest"],
    ]);
    expect(seen[0]!.password).toBe(PASSWORD);
    // A digest is Base64(SHA-1(nonce + created + password)), with a fresh nonce each time.
    const d = seen[1]!;
    expect(d.password).not.toContain(PASSWORD);
    expect(d.password).toBe(
      createHash("sha1").update(d.nonce!).update(d.created!).update(PASSWORD).digest("base64"),
    );
    expect(d.nonce!.length).toBe(16);
    expect(Buffer.from(seen[3]!.nonce!).equals(Buffer.from(d.nonce!))).toBe(false);
    expect(Math.abs(Date.parse(d.created!) - Date.now())).toBeLessThan(60_000);
  });

  it("a wrong password, a tampered digest and no token at all are refused by the check", async () => {
    const seen: ReceivedUsernameToken[] = [];
    const server = await servers.serve(
      createApiHandler(service(seen), { understands: understandsSecurity }),
    );
    const endpoint = `${server.url}/api.asmx`;
    for (const wsSecurity of [
      { username: USER, password: "wrong" },
      { username: USER, password: "wrong", passwordType: "digest" as const },
      undefined,
    ]) {
      const e = await new ApiClient({ endpoint, ...(wsSecurity ? { wsSecurity } : {}) })
        .getMessages(ANY)
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(SoapFault);
      expect((e as SoapFault).message).toBe("Invalid credentials.");
    }
    const digest = seen[1]!;
    expect(passwordMatches(digest, "wrong")).toBe(true);
    expect(passwordMatches({ ...digest, created: "2000-01-01T00:00:00.000Z" }, "wrong")).toBe(
      false,
    );
    expect(passwordMatches({ ...seen[0]!, password: "wron" }, "wrong")).toBe(false);
  });

  it("sends a timestamp when asked, and a server that does not understand the header answers MustUnderstand", async () => {
    let body = "";
    const recorder = await servers.serve((req, res) => {
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => res.writeHead(500, { "Content-Type": "text/plain" }).end("x"));
    });
    await new ApiClient({
      endpoint: `${recorder.url}/api.asmx`,
      wsSecurity: { username: "u", password: "p", timestampSeconds: 300 },
    })
      .getMessages(ANY)
      .catch(() => {});
    const created =
      /<wsu:Timestamp wsu:Id="TS-1"><wsu:Created>([^<]+)<\/wsu:Created><wsu:Expires>([^<]+)<\/wsu:Expires><\/wsu:Timestamp>/.exec(
        body,
      );
    expect(created).not.toBeNull();
    expect(Date.parse(created![2]!) - Date.parse(created![1]!)).toBe(300_000);
    expect(body).toContain(
      '<soap:Header><wsse:Security xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"',
    );
    expect(body).toContain('soap:mustUnderstand="1"');

    const strict = await servers.serve(createApiHandler(service([])));
    const e = await new ApiClient({
      endpoint: `${strict.url}/api.asmx`,
      wsSecurity: { username: USER, password: PASSWORD },
    })
      .getMessages(ANY)
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SoapFault);
    expect((e as SoapFault).code).toBe("soap:MustUnderstand");
    expect((e as SoapFault).message).toBe(`SOAP header {${WSSE_NS}}Security was not understood.`);
  });
});

describe("extraSoapHeaders", () => {
  const WSA = "http://www.w3.org/2005/08/addressing";

  it("writes undeclared header entries per request (WS-Addressing here), which a server that understands them hands to the implementation", async () => {
    const actions: string[] = [];
    const impl: ApiService = {
      getMessages: (_input, ctx) => {
        const action = ctx.soapHeaderElements.find((e) => e.ns === WSA && e.local === "Action");
        actions.push(action ? nodeText(action) : "(none)");
        return [];
      },
      getMessagesInDateRange: () => [],
      deleteMessage: () => undefined,
    };
    const server = await servers.serve(
      createApiHandler(impl, { understands: (ns) => ns === WSA || ns === WSSE_NS }),
    );
    const seen: SoapRequestInfo[] = [];
    for (const port of ["ApiSoap", "ApiSoap12"] as const) {
      const client = new ApiClient({
        endpoint: `${server.url}/api.asmx`,
        port,
        wsSecurity: { username: USER, password: PASSWORD },
        extraSoapHeaders: (request) => {
          seen.push(request);
          return `<wsa:Action xmlns:wsa="${WSA}" soap:mustUnderstand="1">${request.action}</wsa:Action><wsa:To xmlns:wsa="${WSA}">${request.endpoint}</wsa:To>`;
        },
      });
      expect(await client.getMessages(ANY)).toEqual([]);
    }
    expect(actions).toEqual([
      "http://api.example.com/messages/GetMessages",
      "http://api.example.com/messages/GetMessages",
    ]);
    expect(seen.map((r) => [r.soapVersion, r.endpoint])).toEqual([
      ["1.1", `${server.url}/api.asmx`],
      ["1.2", `${server.url}/api.asmx`],
    ]);
    expect(seen[0]!.operation.toLowerCase()).toBe("getmessages");
  });

  it("a fixed string is written as it is, after the WS-Security header", async () => {
    let body = "";
    const recorder = await servers.serve((req, res) => {
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => res.writeHead(500, { "Content-Type": "text/plain" }).end("x"));
    });
    const extra = '<s:Session xmlns:s="urn:vendor">abc</s:Session>';
    await new ApiClient({
      endpoint: `${recorder.url}/api.asmx`,
      wsSecurity: { username: "u", password: "p" },
      extraSoapHeaders: extra,
    })
      .getMessages(ANY)
      .catch(() => {});
    expect(body).toMatch(
      new RegExp(`<soap:Header><wsse:Security [^]*</wsse:Security>${extra}</soap:Header>`),
    );
  });
});

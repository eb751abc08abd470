/**
 * Negotiate (Kerberos) through a real acceptor: a throwaway MIT realm, and Apache httpd with
 * mod_auth_gssapi and the keytab of HTTP/localhost in front of the Message Retrieval Service.
 * `curl --negotiate` checks the setup first, so that a broken one is told apart from our failure.
 */
import { readdirSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { negotiate, NegotiateError } from "@wsdl-tsgen/negotiate";
import { main } from "../../src/cli/main.js";
import { ApiClient, type ApiPortName } from "../../generated-samples/message-service/index.js";
import { AuthenticationError } from "../../runtime/src/index.js";
import { apacheMissing, startApache, type Apache } from "../support/apache.js";
import { expectKeptAlive, startMessageService } from "./fronted.js";
import {
  KDC_MISSING_HINT,
  kdcMissing,
  kerberosProxyConf,
  negotiateReference,
  startRealm,
  type Realm,
} from "../support/kdc.js";
import { tempDir } from "../support/tmp.js";

const missing =
  kdcMissing() ?? apacheMissing(["mod_auth_gssapi.so", "mod_proxy.so", "mod_proxy_http.so"]);
if (missing)
  console.warn(`skipping the Kerberos tests through Apache: ${missing}; ${KDC_MISSING_HINT}`);

const ALICE = { email: "alice@example.com", password: "alice-pass" };
const PASSWORD = "Kerb-Pässwörd€";
const PORTS: readonly ApiPortName[] = ["ApiSoap", "ApiSoap12", "ApiHttpGet", "ApiHttpPost"];

describe.skipIf(missing !== undefined)(
  "Negotiate (Kerberos) through Apache mod_auth_gssapi",
  () => {
    let realm: Realm;
    let apache: Apache;
    let service: Awaited<ReturnType<typeof startMessageService>>;
    let endpoint: string;
    let ccache: string;

    beforeAll(async () => {
      service = await startMessageService();
      realm = await startRealm([
        ["alice", PASSWORD],
        ["bob", "bob-pass"],
      ]);
      const backend = new URL(service.url).origin;
      apache = await startApache(
        ["auth_gssapi", "proxy", "proxy_http"],
        () => kerberosProxyConf(backend, realm.keytab),
        realm.env,
      );
      endpoint = `http://localhost:${apache.port}/api.asmx`;
      ccache = await realm.kinit("bob", "bob-pass");
      const reference = await negotiateReference(`${endpoint}?WSDL`, ccache, realm.env);
      if (typeof reference === "string") throw new Error(reference);
      if (reference !== 200) throw new Error(`the Kerberos setup is broken: curl got ${reference}`);
      vi.stubEnv("KRB5_CONFIG", realm.env["KRB5_CONFIG"]);
    });
    afterAll(async () => {
      vi.unstubAllEnvs();
      await apache?.stop();
      await realm?.stop();
      await service?.close();
    });

    it.each(PORTS)(
      "returns the messages over %s from the credential cache, 20 calls in parallel on kept-alive connections",
      async (port) => {
        vi.stubEnv("KRB5CCNAME", ccache);
        const client = new ApiClient({ endpoint, port, auth: negotiate() });
        const round = () =>
          Promise.all(Array.from({ length: 20 }, () => client.getMessages(ALICE)));
        const first = await expectKeptAlive(apache, round);
        for (const list of first)
          expect(list?.map((m) => m?.Id)).toEqual([101, 102, 103, 104, 105]);
      },
    );

    it("obtains a ticket with a username and password, leaving KRB5CCNAME as it was", async () => {
      vi.stubEnv("KRB5CCNAME", `FILE:${path.join(realm.dir, "no-such-cache")}`);
      const auth = negotiate({ username: "alice", domain: "example.test", password: PASSWORD });
      const client = new ApiClient({ endpoint, port: "ApiSoap12", auth });
      const lists = await Promise.all(Array.from({ length: 5 }, () => client.getMessages(ALICE)));
      for (const list of lists) expect(list).toHaveLength(5);
      expect(process.env["KRB5CCNAME"]).toBe(`FILE:${path.join(realm.dir, "no-such-cache")}`);
      expect(apache.errorLog()).not.toContain(PASSWORD);
    });

    it("gives a wrong password as a NegotiateError at once, nothing sent", async () => {
      const auth = negotiate({ username: "alice@EXAMPLE.TEST", password: "wrong" });
      const client = new ApiClient({ endpoint, auth });
      const before = apache.accessLog().length;
      const started = Date.now();
      const error = await client.getMessages(ALICE).catch((e: unknown) => e);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(error).toBeInstanceOf(NegotiateError);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect((error as NegotiateError).reason).toBe("wrong-password");
      expect((error as Error).message).toBe(
        "Negotiate: the KDC refused the password of alice@EXAMPLE.TEST (kinit: Password incorrect while getting initial credentials)",
      );
      expect((error as Error).message).not.toContain("wrong\n");
      expect(apache.accessLog().slice(before)).toEqual([]);
    });

    it("says there is no ticket when the credential cache is empty", async () => {
      vi.stubEnv("KRB5CCNAME", `FILE:${path.join(realm.dir, "no-such-cache")}`);
      const client = new ApiClient({ endpoint, auth: negotiate() });
      const error = await client.getMessages(ALICE).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NegotiateError);
      expect((error as NegotiateError).reason).toBe("no-ticket");
      expect((error as Error).message).toMatch(/HTTP@localhost: no Kerberos ticket.*run kinit/);
    });

    it("is guarded: without negotiate() the call is a 401 offering Negotiate", async () => {
      const error = await new ApiClient({ endpoint }).getMessages(ALICE).catch((e: unknown) => e);
      expect(String(error)).toMatch(/401/);
    });

    it("asks for the service principal given as spn, which the realm must know", async () => {
      vi.stubEnv("KRB5CCNAME", ccache);
      const client = new ApiClient({ endpoint, auth: negotiate({ spn: "HTTP/elsewhere" }) });
      const error = await client.getMessages(ALICE).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NegotiateError);
      expect((error as Error).message).toMatch(/HTTP@elsewhere: no Kerberos ticket.*not found/i);
    });

    it("lets generate read the protected ?WSDL with --auth negotiate from the credential cache", async () => {
      vi.stubEnv("KRB5CCNAME", ccache);
      const out = path.join(tempDir(), "gen");
      let said = "";
      const io = {
        stdout: (t: string) => void (said += t),
        stderr: (t: string) => void (said += t),
        color: false,
      };
      const args = ["generate", `${endpoint}?WSDL`, "-o", out, "--auth", "negotiate"];
      expect(await main(args, io)).toBe(0);
      expect(readdirSync(out)).toContain("client.ts");
      vi.stubEnv("KRB5CCNAME", `FILE:${path.join(realm.dir, "no-such-cache")}`);
      said = "";
      expect(await main(args, io)).toBe(1);
      expect(said).toMatch(/no Kerberos ticket/);
    });
  },
);

/**
 * Negotiate's NTLM fallback, with a password: NTLM's messages inside Negotiate when no Kerberos
 * ticket can be had (as Windows sends them; gss-ntlmssp behind Apache accepts them), and the NTLM
 * scheme itself when the server offers NTLM alone.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { negotiate } from "@wsdl-tsgen/negotiate";
import { ApiClient } from "../../generated-samples/message-service/index.js";
import { createTransport } from "../../runtime/src/transport/transport.js";
import {
  NTLM_MISSING_HINT,
  ntlmApacheMissing,
  ntlmProxyConf,
  ntlmUsersFile,
  startApache,
  type Apache,
} from "../support/apache.js";
import { startMessageService } from "./fronted.js";
import { listen } from "../support/loopback.js";
import { tempDir } from "../support/tmp.js";

/** A Kerberos configuration with no realm and no DNS look-up: no ticket can be had, quickly. */
function noRealm(): string {
  const file = path.join(tempDir(), "krb5.conf");
  writeFileSync(file, "[libdefaults]\n  dns_lookup_kdc = false\n  dns_lookup_realm = false\n");
  return file;
}

afterEach(() => void vi.unstubAllEnvs());

describe("Negotiate falling back to NTLM", () => {
  it("answers a server that offers NTLM alone with NTLM on the same connection", async () => {
    vi.stubEnv("KRB5_CONFIG", noRealm());
    const seen: { auth: string; port: number }[] = [];
    const lb = await listen((req: IncomingMessage, res: ServerResponse) => {
      const auth = req.headers.authorization ?? "";
      seen.push({ auth, port: req.socket.remotePort! });
      if (auth.startsWith("NTLM TlRMTVNTUAAB")) return void res.end("in");
      res.writeHead(401, { "WWW-Authenticate": "NTLM" }).end();
    });
    try {
      const fetch = createTransport({
        auth: negotiate({ username: "EXAMPLE\\alice", password: "pw" }),
        proxy: false,
      });
      const res = await fetch(`${lb.url}/x`);
      expect(await res.text()).toBe("in");
      expect(seen.map((s) => s.auth.split(" ")[0])).toEqual(["Negotiate", "NTLM"]);
      // No ticket: the first message was NTLM's NEGOTIATE inside Negotiate, as Windows sends it.
      expect(seen[0]!.auth).toMatch(/^Negotiate TlRMTVNTUAAB/);
      expect(new Set(seen.map((s) => s.port)).size).toBe(1);
    } finally {
      await lb.close();
    }
  });

  it("gives the server's refusal when there is no password to fall back on", async () => {
    vi.stubEnv("KRB5_CONFIG", noRealm());
    vi.stubEnv("KRB5CCNAME", `FILE:${path.join(tempDir(), "none")}`);
    const lb = await listen((_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(401, { "WWW-Authenticate": "NTLM" }).end();
    });
    try {
      const fetch = createTransport({ auth: negotiate(), proxy: false });
      await expect(fetch(`${lb.url}/x`)).rejects.toThrow(/no Kerberos ticket/);
    } finally {
      await lb.close();
    }
  });
});

const missing = ntlmApacheMissing();
if (missing)
  console.warn(`skipping Negotiate's NTLM through Apache: ${missing}; ${NTLM_MISSING_HINT}`);

describe.skipIf(missing !== undefined)("Negotiate's NTLM through Apache and gss-ntlmssp", () => {
  let apache: Apache;
  let service: Awaited<ReturnType<typeof startMessageService>>;

  beforeAll(async () => {
    service = await startMessageService();
    const users = ntlmUsersFile(tempDir(), [["EXAMPLE", "alice", "Pässwörd"]]);
    const backend = new URL(service.url).origin;
    apache = await startApache(
      ["auth_gssapi", "proxy", "proxy_http"],
      () => ntlmProxyConf(backend),
      {
        NTLM_USER_FILE: users,
      },
    );
  });
  afterAll(async () => {
    await apache?.stop();
    await service?.close();
  });

  it("returns the messages with no ticket to be had, 10 calls in parallel", async () => {
    vi.stubEnv("KRB5_CONFIG", noRealm());
    const client = new ApiClient({
      endpoint: `http://127.0.0.1:${apache.port}/api.asmx`,
      auth: negotiate({ username: "EXAMPLE\\alice", password: "Pässwörd" }),
    });
    const lists = await Promise.all(
      Array.from({ length: 10 }, () =>
        client.getMessages({ email: "alice@example.com", password: "alice-pass" }),
      ),
    );
    for (const list of lists) expect(list?.map((m) => m?.Id)).toEqual([101, 102, 103, 104, 105]);
  });
});

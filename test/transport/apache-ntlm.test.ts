/**
 * NTLM through a real acceptor: Apache httpd with mod_auth_gssapi and gss-ntlmssp as an
 * authenticating reverse proxy in front of the Message Retrieval Service, as IIS stands in front
 * of ASMX. python3-requests-ntlm checks the setup first, so that a broken one is told apart from
 * our failure.
 */
import * as path from "node:path";
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.js";
import { ApiClient, type ApiPortName } from "../../generated-samples/message-service/index.js";
import { AuthenticationError, ntlm, type Exchange } from "../../runtime/src/index.js";
import {
  NTLM_MISSING_HINT,
  ntlmApacheMissing,
  ntlmProxyConf,
  ntlmReference,
  ntlmUsersFile,
  startApache,
  type Apache,
} from "../support/apache.js";
import { expectKeptAlive, logged, startMessageService } from "./fronted.js";
import { tempDir } from "../support/tmp.js";

const missing = ntlmApacheMissing();
if (missing)
  console.warn(`skipping the NTLM tests through Apache: ${missing}; ${NTLM_MISSING_HINT}`);

const ALICE = { email: "alice@example.com", password: "alice-pass" };
const PASSWORD = "S3cret-Pässwörd€";
const PORTS: readonly ApiPortName[] = ["ApiSoap", "ApiSoap12", "ApiHttpGet", "ApiHttpPost"];

describe.skipIf(missing !== undefined)("NTLM through Apache mod_auth_gssapi", () => {
  let apache: Apache;
  let service: Awaited<ReturnType<typeof startMessageService>>;
  let endpoint: string;

  beforeAll(async () => {
    const dir = tempDir();
    service = await startMessageService();
    const backend = new URL(service.url).origin;
    const users = ntlmUsersFile(dir, [
      ["EXAMPLE", "alice", PASSWORD],
      ["EXAMPLE", "bob", "plain-ascii"],
    ]);
    apache = await startApache(
      ["auth_gssapi", "proxy", "proxy_http"],
      () => ntlmProxyConf(backend),
      {
        NTLM_USER_FILE: users,
      },
    );
    endpoint = `http://127.0.0.1:${apache.port}/api.asmx`;
    const reference = await ntlmReference(`${endpoint}?WSDL`, "EXAMPLE\\bob", "plain-ascii", dir);
    if (typeof reference === "string") console.warn(`NTLM setup not checked: ${reference}`);
    else if (reference !== 200)
      throw new Error(`the NTLM setup is broken: python3-requests-ntlm got ${reference}`);
  });
  afterAll(async () => {
    await apache?.stop();
    await service?.close();
  });

  it.each(PORTS)(
    "returns the messages over %s, 20 calls in parallel on kept-alive connections",
    async (port) => {
      const auth = ntlm({ username: "EXAMPLE\\alice", password: PASSWORD });
      const client = new ApiClient({ endpoint, port, auth });
      const round = () => Promise.all(Array.from({ length: 20 }, () => client.getMessages(ALICE)));
      const first = await expectKeptAlive(apache, round);
      for (const list of first) expect(list?.map((m) => m?.Id)).toEqual([101, 102, 103, 104, 105]);
    },
  );

  it("gives a wrong password as an AuthenticationError at once: two requests, no loop", async () => {
    const client = new ApiClient({
      endpoint,
      auth: ntlm({ username: "alice", domain: "EXAMPLE", password: "wrong" }),
    });
    const before = apache.accessLog().length;
    const error = await client.getMessages(ALICE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
    expect((error as AuthenticationError).offered).toContain("NTLM");
    expect((error as Error).message).toMatch(/401 Unauthorized.*rejected the credentials.*NTLM/);
    const lines = await logged(apache, before, (l) => l.length >= 2);
    expect(lines.map((l) => l.split(" ")[1])).toEqual(["401", "401"]);
  });

  it("reads name@DOMAIN, and keeps the password out of traces and errors", async () => {
    const exchanges: Exchange[] = [];
    const client = new ApiClient({
      endpoint,
      port: "ApiSoap12",
      auth: ntlm({ username: "alice@EXAMPLE", password: PASSWORD }),
      trace: (x) => exchanges.push(x),
    });
    await client.getMessages(ALICE);
    const bad = new ApiClient({
      endpoint,
      auth: ntlm({ username: "alice@EXAMPLE", password: `${PASSWORD}x` }),
    });
    const error = await bad.getMessages(ALICE).catch((e: unknown) => e);
    const seen =
      JSON.stringify(exchanges) + String(error) + JSON.stringify(error) + apache.errorLog();
    expect(exchanges).toHaveLength(1);
    expect(seen).not.toContain(PASSWORD);
    expect(seen).not.toContain(Buffer.from(PASSWORD, "utf16le").toString("base64"));
  });

  /** Runs the CLI in-process with the password in its environment variable; what it printed. */
  async function cli(args: string[], password: string | undefined) {
    let out = "";
    const io = {
      stdout: (t: string) => void (out += t),
      stderr: (t: string) => void (out += t),
      color: false,
    };
    vi.stubEnv("WSDL_TSGEN_PASSWORD", password);
    try {
      return { code: await main(args, io), out };
    } finally {
      vi.unstubAllEnvs();
    }
  }

  const generateArgs = (out: string, ...user: string[]) => [
    "generate",
    `${endpoint}?WSDL`,
    "-o",
    out,
    "--auth",
    "ntlm",
    ...user,
  ];

  it("lets generate read the protected ?WSDL with --auth ntlm, the password never written", async () => {
    const out = path.join(tempDir(), "gen");
    const r = await cli(generateArgs(out, "--user", "EXAMPLE\\alice"), PASSWORD);
    expect(r.code).toBe(0);
    const files = readdirSync(out);
    expect(files).toContain("client.ts");
    const written = files.map((f) => readFileSync(path.join(out, f), "utf8")).join("\n");
    expect(written).toContain("getMessages");
    expect(written + r.out).not.toContain(PASSWORD);
  });

  it("says what is wrong: no password in the environment, or a wrong one (a 401 naming the schemes)", async () => {
    const out = path.join(tempDir(), "gen");
    const args = generateArgs(out, "--user", "alice", "--domain", "EXAMPLE");
    const none = await cli(args, undefined);
    expect(none.code).toBe(2);
    expect(none.out).toMatch(/WSDL_TSGEN_PASSWORD/);
    const wrong = await cli(args, "not-the-password");
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(
      /401 Unauthorized.*rejected the credentials \(NTLM\); it offers .*NTLM/,
    );
    expect(wrong.out).not.toContain("not-the-password");
    const unauthenticated = await cli(["generate", `${endpoint}?WSDL`, "-o", out], undefined);
    expect(unauthenticated.out).toMatch(/HTTP 401/);
  });
});

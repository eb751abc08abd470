/**
 * The cost of Windows authentication per call: GetMessages through Apache httpd with Basic
 * (mod_auth_basic), NTLM (mod_auth_gssapi with gss-ntlmssp) and Kerberos (mod_auth_gssapi with the
 * keytab of a throwaway MIT realm) in front of the Message Retrieval Service, our client with
 * `basic()`, `ntlm()` and `negotiate()`. Two figures each, as ratios to Basic in the same run, the
 * schemes interleaved round by round: a call on a kept-alive, authenticated connection (NTLM and
 * Kerberos send no header there), and a first call on a new connection (with its handshake).
 * Needs Debian's apache2, libapache2-mod-auth-gssapi, gss-ntlmssp and krb5-kdc, as the tests.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { basic, ntlm, type HttpAuthentication } from "@wsdl-tsgen/runtime";
import { negotiate } from "@wsdl-tsgen/negotiate";
import { startServer } from "../examples/message-service/server.js";
import { ApiClient } from "../generated-samples/message-service/index.js";
import { gssapiProxyConf, ntlmApacheMissing, startApache } from "../test/support/apache.js";
import { kdcMissing, startRealm } from "../test/support/kdc.js";
import { tempDir } from "../test/support/tmp.js";
import { SEED_PATH } from "./data.js";
import { fail, fmt, median, ratio } from "./util.js";

const ALICE = { email: "alice@example.com", password: "alice-pass" };
const PASSWORD = "bench-pass";

/** Apache with /basic/, /ntlm/ and /krb/ in front of `backend`, each with its scheme. */
function conf(backend: string, dir: string, keytab: string): string {
  const hash = execFileSync("openssl", ["passwd", "-apr1", PASSWORD], { encoding: "utf8" }).trim();
  writeFileSync(path.join(dir, "htpasswd"), `alice:${hash}\n`, { mode: 0o644 });
  const scoped = (prefix: string, text: string) =>
    text
      .replace("<Location />", `<Location /${prefix}/>`)
      .replace(/ \/ http/g, ` /${prefix}/ http`);
  const basicConf = [
    "<Location /basic/>",
    "  AuthType Basic",
    '  AuthName "bench"',
    `  AuthUserFile ${path.join(dir, "htpasswd")}`,
    "  Require valid-user",
    "</Location>",
    `ProxyPass /basic/ ${backend}/`,
  ].join("\n");
  return [
    basicConf,
    scoped("ntlm", gssapiProxyConf(backend, "Windows", ["GssapiAllowedMech ntlmssp"])),
    scoped(
      "krb",
      gssapiProxyConf(backend, "Kerberos", [
        "GssapiAllowedMech krb5",
        `GssapiCredStore keytab:${keytab}`,
      ]),
    ),
  ].join("\n");
}

/** Milliseconds per call of `calls` sequential calls on one client's kept-alive connection. */
async function perCall(client: ApiClient, calls: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < calls; i++) await client.getMessages(ALICE);
  return (performance.now() - started) / calls;
}

/** Milliseconds of a first call, on a new connection, of a new client. */
async function firstCall(make: () => ApiClient): Promise<number> {
  const client = make();
  const started = performance.now();
  const list = await client.getMessages(ALICE);
  if (list?.length !== 5) fail(`a first call returned ${list?.length} messages, expected 5`);
  return performance.now() - started;
}

export async function authBench(options: { rounds: number; calls: number }): Promise<void> {
  console.log("\n## Authentication: Basic, NTLM and Kerberos through Apache, per call");
  const missing = ntlmApacheMissing() ?? kdcMissing();
  if (missing) return void console.log(`skipped: ${missing}`);
  const dir = tempDir("bench-auth-");
  const service = await startServer({
    port: 0,
    host: "127.0.0.1",
    dbPath: path.join(dir, "m.db"),
    seedPath: SEED_PATH,
    log: () => {},
  });
  const realm = await startRealm([["alice", PASSWORD]]);
  const users = path.join(realm.dir, "ntlm-users");
  writeFileSync(users, `EXAMPLE:alice:${PASSWORD}\n`, { mode: 0o644 });
  const backend = new URL(service.url).origin;
  const apache = await startApache(
    ["auth_basic", "authn_file", "auth_gssapi", "proxy", "proxy_http"],
    () => conf(backend, realm.dir, realm.keytab),
    { ...realm.env, NTLM_USER_FILE: users },
  );
  const before = { ...process.env };
  try {
    process.env["KRB5_CONFIG"] = realm.env["KRB5_CONFIG"];
    process.env["KRB5CCNAME"] = await realm.kinit("alice", PASSWORD);
    const origin = `http://localhost:${apache.port}`;
    const schemes: [string, string, () => HttpAuthentication][] = [
      ["Basic", "basic", () => basic({ username: "alice", password: PASSWORD })],
      ["NTLM", "ntlm", () => ntlm({ username: "EXAMPLE\\alice", password: PASSWORD })],
      ["Kerberos", "krb", () => negotiate()],
    ];
    const make = (prefix: string, auth: () => HttpAuthentication) => () =>
      new ApiClient({ endpoint: `${origin}/${prefix}/api.asmx`, auth: auth() });
    const clients = schemes.map(([, prefix, auth]) => make(prefix, auth)());
    for (const c of clients) await perCall(c, 20); // warm-up: handshakes, JIT
    const kept: number[][] = schemes.map(() => []);
    const first: number[][] = schemes.map(() => []);
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 ? [2, 1, 0] : [0, 1, 2];
      for (const i of order) {
        kept[i]!.push(await perCall(clients[i]!, options.calls));
        for (let n = 0; n < 5; n++)
          first[i]!.push(await firstCall(make(schemes[i]![1], schemes[i]![2])));
      }
    }
    const base = { kept: median(kept[0]!), first: median(first[0]!) };
    console.log(
      "| scheme | kept-alive call (ms) | vs Basic | first call, new connection (ms) | vs Basic |",
    );
    console.log("|---|---|---|---|---|");
    schemes.forEach(([name], i) => {
      const k = median(kept[i]!);
      const f = median(first[i]!);
      console.log(
        `| ${name} | ${fmt(k, 2)} | ${ratio(k, base.kept)} | ${fmt(f, 2)} | ${ratio(f, base.first)} |`,
      );
    });
  } finally {
    process.env = before;
    await apache.stop();
    await realm.stop();
    await service.close();
  }
}

/**
 * The WS-Security interop entry point (examples/message-service/wss.ts): `serve` in a child
 * process, as a user starts it, answering only requests signed by a certificate it trusts and
 * signing its answers; `call` run in-process, printing the verified result as JSON or one line of
 * error with exit status 1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../examples/message-service/wss.js";
import { startServiceProcess, type ServiceProcess } from "../support/service-process.js";
import { makeKeys, opensslMissing, type TestKeys } from "../support/wss-keys.js";
import { runMain, SEED } from "./helpers.js";

const missing = opensslMissing();
if (missing) console.log(`wss: ${missing}; the example's tests are skipped.`);

const run = (...args: string[]) => runMain(main, args);

describe.skipIf(missing !== undefined)("npm run example:wss", () => {
  let server: TestKeys;
  let client: TestKeys;
  let stranger: TestKeys;
  let service: ServiceProcess;

  beforeAll(async () => {
    server = makeKeys("example-server");
    client = makeKeys("example-client");
    stranger = makeKeys("example-stranger");
    const keys = ["--key", server.keyPath, "--cert", server.certPath, "--trust", client.certPath];
    service = await startServiceProcess(keys, process.env, "examples/message-service/wss.ts");
  }, 60_000);
  afterAll(() => service?.stop());

  const as = (k: TestKeys, trust: TestKeys) =>
    ["--key", k.keyPath, "--cert", k.certPath, "--trust", trust.certPath] as const;

  it("calls over SOAP 1.1 and 1.2, signed both ways, and prints the seed's messages", async () => {
    const alice = SEED.accounts.find((a) => a.email === "alice@example.com")!;
    for (const soap12 of [[], ["--soap12"]]) {
      const r = await run("call", service.url, ...as(client, server), ...soap12);
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
      const ids = (JSON.parse(r.out) as { Id: number }[]).map((m) => m.Id);
      expect(ids).toEqual((alice.messages ?? []).map((m) => m.Id));
      expect(ids.length).toBeGreaterThan(0);
    }
  });

  it("fails with one line when the server does not trust the caller", async () => {
    const r = await run("call", service.url, ...as(stranger, server));
    expect(r).toEqual({
      code: 1,
      out: "",
      err: "error: The security of the request could not be verified: the signing certificate is not trusted.",
    });
  });

  it("fails with one line when the answer is signed by a certificate not trusted", async () => {
    const r = await run("call", service.url, ...as(client, client));
    expect(r).toEqual({ code: 1, out: "", err: "error: the signing certificate is not trusted" });
  });
});

describe("example:wss's usage errors", () => {
  const keys = ["--key", "k.pem", "--cert", "c.pem", "--trust", "t.pem"];
  it("exits 2, before any call, on an unknown --op or an --id that is not an int", async () => {
    for (const bad of [
      ["--op", "GetMessage"],
      ["--op", "DeleteMessage", "--id", "abc"],
    ]) {
      const r = await run("call", "http://127.0.0.1:1/api.asmx", ...keys, ...bad);
      expect(r.code).toBe(2);
      expect(r.out).toBe("");
      expect(r.err).toMatch(
        bad.includes("--id") ? /message id/ : /Allowed choices are GetMessages/,
      );
    }
  });
});

/**
 * SOAP-encoded arrays against clients that speak SOAP encoding: Python zeep and suds each read the
 * generated server's ?WSDL (fixtures/encoded-arrays), send arrays the way they build them (suds
 * with soapenc:arrayType and xsi:type on every value, zeep with neither, its items named after
 * their type), and read back what the server writes (xsi:type="soapenc:Array", soapenc:arrayType,
 * typed items). A peer that is not installed skips, saying what to install; `.ci/run` installs
 * both.
 */
import { execFile, spawnSync } from "node:child_process";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EchoRequest } from "../../generated-samples/encoded-arrays/index.js";
import { echoServer, type EchoServer } from "../support/echo-server.js";

const DRIVER = path.join(path.dirname(fileURLToPath(import.meta.url)), "clients/encoded_client.py");
/** Debian's packages install into the system Python, which may not be the first python3 on PATH. */
const PYTHONS = ["/usr/bin/python3", "python3"];
const pythonWith = (module: string) =>
  PYTHONS.find(
    (p) =>
      spawnSync(p, ["-c", `import ${module}`], { stdio: "ignore", timeout: 30_000 }).status === 0,
  );

/** What the driver sends (see encoded_client.py), as the server's implementation must see it. */
const SENT: EchoRequest = {
  items: [
    { id: 1, name: "one & <two>" },
    { id: 2, name: null },
  ],
  names: ["a", "b & c"],
  numbers: [7, -8, 9],
  basket: { owner: "me", items: [{ id: 3, name: "three" }] },
};

let server: EchoServer;
beforeAll(async () => (server = await echoServer()));
afterAll(() => server.close());

function drive(python: string, peer: string): Promise<unknown> {
  return new Promise((resolve, reject) =>
    execFile(
      python,
      [DRIVER, peer, `${server.url}/echo?WSDL`],
      { timeout: 60_000, encoding: "utf8" },
      (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    ),
  );
}

for (const [peer, module, pkg] of [
  ["zeep", "zeep", "python3-zeep"],
  ["suds", "suds", "python3-suds"],
] as const) {
  const python = pythonWith(module);
  if (!python)
    console.log(
      `interop: Python ${peer} is not installed (apt-get install ${pkg}); its tests are skipped.`,
    );

  describe.skipIf(python === undefined)(`SOAP-encoded arrays with Python ${peer}`, () => {
    it("arrive whole at the generated server, and come back whole", async () => {
      server.arrived.length = 0;
      expect(await drive(python!, peer)).toEqual(SENT);
      expect(server.arrived).toEqual([SENT]);
    });
  });
}

/**
 * Existing clients must keep working against a server scaffolded from the WSDL. Three clients other
 * than ours, each as its users run it: Python zeep, Mono's .NET wsdl.exe proxies (the ASMX client
 * stack, over all four protocols) and the JAX-WS reference implementation's wsimport stubs. Each
 * reads our service's ?WSDL, lists, lists a date range, deletes and lists again over every port it
 * can call, and meets the faults of a wrong password, a foreign id and an unknown id, and must see
 * the seed's values as it shows them (its own date precision, its own view of an empty element).
 * A peer that is not installed skips, saying what to install; `.ci/run` installs them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../examples/message-service/server.js";
import type { ApiPortName } from "../../generated-samples/message-service/index.js";
import { seedMessages, type PlainMessage } from "../support/expected.js";
import { PEERS, type Peer } from "./peers.js";

const ALICE = "alice@example.com";
/** The id each port deletes, so that every port sees the deletes of the ports before it. */
const DELETES: Readonly<Record<ApiPortName, number>> = {
  ApiSoap: 101,
  ApiSoap12: 102,
  ApiHttpGet: 103,
  ApiHttpPost: 104,
};
const RANGE = { start: "2024-01-10T00:00:00", end: "2024-02-29T23:59:59" };
const SOAP_CODES: Readonly<Record<ApiPortName, string>> = {
  ApiSoap: "Client",
  ApiSoap12: "Sender",
  ApiHttpGet: "",
  ApiHttpPost: "",
};

/** A message as the peer's driver prints it: every field, null where the peer has none. */
function asSeen(peer: Peer, m: PlainMessage): Record<string, unknown> {
  const text = (v: string | undefined) =>
    v === undefined ? null : v === "" ? peer.emptyString : v;
  return {
    Id: m.Id,
    DateArrived: peer.date(m.DateArrived),
    UserId: m.UserId,
    Sender: text(m.Sender),
    MessageText: text(m.MessageText),
    MessageUrl: text(m.MessageUrl),
    Transcription: text(m.Transcription),
  };
}

function failure(peer: Peer, port: ApiPortName, message: string): unknown {
  return port === "ApiSoap" || port === "ApiSoap12"
    ? peer.fault(port, SOAP_CODES[port], message)
    : peer.httpError(message);
}

for (const peer of PEERS) {
  const missing = peer.missing();
  if (missing) console.log(`interop: ${missing}; its tests are skipped.`);

  describe.skipIf(missing !== undefined)(peer.name, () => {
    let server: { url: string; close(): Promise<void> };
    let dir: string;
    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), "mrs-peer-"));
      server = await startServer({
        port: 0,
        host: "127.0.0.1",
        dbPath: path.join(dir, "m.db"),
        seedPath: "fixtures/message-service/asmx/seed.json",
      });
      await peer.prepare(dir, server.url);
    }, 180_000);
    afterAll(async () => {
      await server?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it(
      `reads the ?WSDL and calls every operation over ${peer.ports.join(", ")}, seeing the seed's values and its faults`,
      { timeout: 180_000 },
      async () => {
        let remaining = seedMessages(ALICE);
        for (const port of peer.ports) {
          const id = DELETES[port];
          const steps = [
            "list",
            `range:${RANGE.start.replaceAll(":", "_")}:${RANGE.end.replaceAll(":", "_")}`,
            `delete:${id}`,
            "list",
            "wrong",
            "delete:201",
            "delete:999",
          ];
          const got = await peer.run(dir, server.url, port, steps);
          const inRange = remaining.filter(
            (m) => m.DateArrived >= RANGE.start && m.DateArrived <= `${RANGE.end}.9999999`,
          );
          const after = remaining.filter((m) => m.Id !== id);
          expect(got, port).toEqual([
            { step: steps[0], value: remaining.map((m) => asSeen(peer, m)) },
            { step: steps[1], value: inRange.map((m) => asSeen(peer, m)) },
            { step: steps[2], value: peer.deleted(port) },
            { step: steps[3], value: after.map((m) => asSeen(peer, m)) },
            { step: steps[4], value: failure(peer, port, "Invalid email or password.") },
            // Bob's message: whether it exists must not leak.
            { step: steps[5], value: failure(peer, port, "No message with id 201.") },
            { step: steps[6], value: failure(peer, port, "No message with id 999.") },
          ]);
          remaining = after;
        }
      },
    );
  });
}

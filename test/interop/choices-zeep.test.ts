/**
 * A repeated choice keeps its order with Python zeep as the client of our generated server
 * (fixtures/choices, issue #32): zeep reads the server's ?WSDL, sends Message A, CalendarItem B,
 * Message C as its `_value_1` list, and reads back the server's answer in that order; the
 * implementation receives the items in that order too. The same for a repeated sequence holding a
 * choice. Skipped, saying what to install, without zeep (`.ci/run` installs it).
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailboxHandler, type StoreItems } from "../../generated-samples/choices/index.js";
import { listen, type Loopback } from "../support/loopback.js";
import { zeepPython } from "./peers.js";

const DRIVER = path.join(path.dirname(fileURLToPath(import.meta.url)), "clients/choices_client.py");
const python = zeepPython();
if (!python)
  console.log("interop: Python zeep is not installed (apt-get install python3-zeep); skipped.");

describe.skipIf(python === undefined)("a repeated choice with Python zeep", () => {
  const arrived: StoreItems[] = [];
  let lb: Loopback;
  beforeAll(async () => {
    lb = await listen(
      createMailboxHandler({
        storeItems(input) {
          arrived.push(input);
          return input;
        },
      }),
    );
  });
  afterAll(() => lb.close());

  it("arrives in zeep's order, A, B, A, and comes back to zeep in that order", async () => {
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        python!,
        [DRIVER, `${lb.url}/mailbox?WSDL`],
        { timeout: 60_000, encoding: "utf8" },
        (err, stdout, stderr) =>
          err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
    expect(arrived).toHaveLength(1);
    expect(arrived[0]!.Items.Items.map((i) => [i.$choice, i.value.Subject])).toEqual([
      ["Message", "A"],
      ["CalendarItem", "B"],
      ["Message", "C"],
    ]);
    expect(arrived[0]!.Changes?.Items.map((i) => i.$choice)).toEqual([
      "ChangeKey",
      "Deleted",
      "ChangeKey",
      "Created",
    ]);
    expect(JSON.parse(out)).toEqual({
      items: [
        ["Message", "A"],
        ["CalendarItem", "B"],
        ["Message", "C"],
      ],
      changes: [
        ["ChangeKey", "k1"],
        ["Deleted", null],
        ["ChangeKey", "k2"],
        ["Created", "D"],
      ],
    });
  });
});

/**
 * What a recording writes to its response file is what the mock reads back from it: the recorder
 * writes bytes as base64, and a response file's binaries, hexBinary too, are read as base64.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { complex, field, xs } from "../../runtime/src/descriptors/builders.js";
import { soapOperations } from "../../runtime/src/descriptors/operations.js";
import { writeRecording } from "../../runtime/src/server/mock/record.js";
import { typedResult } from "../../runtime/src/server/mock/typed.js";
import { tempDir } from "../support/tmp.js";

const NS = "urn:t";
const Key = complex("Key", () => [
  field("Hex", NS, xs.hexBinary),
  field("Raw", NS, xs.base64Binary),
]);
const ops = soapOperations({
  GetKey: { action: `${NS}/GetKey`, request: undefined, response: field("Key", NS, Key) },
});

describe("a recorded response", () => {
  it("replays hexBinary and base64Binary values equal to those recorded", () => {
    const value = { Hex: new Uint8Array([0, 1, 0xab, 0xff]), Raw: new Uint8Array([9, 8, 7]) };
    const file = writeRecording(tempDir(), "GetKey", {}, { value });
    const body = JSON.parse(readFileSync(file, "utf8")) as { response: unknown };
    expect(body.response).toEqual({ Hex: "AAGr/w==", Raw: "CQgH" });
    expect(typedResult(ops["GetKey"]!, body.response)).toEqual(value);
  });
});

/**
 * The mock's request matching and what a recording keeps of a request: dotted and indexed paths,
 * values in their JSON form, and password-like fields, at any depth, stored as REDACTED, which as
 * a match matches any value; and the seed a mock passes to its samples.
 */
import { describe, expect, it } from "vitest";
import * as path from "node:path";
import { createMocks, jsonReplacer, sampleOutput, XsdDateTime } from "@wsdl-tsgen/runtime";
import { RateServiceDesc } from "../../generated-samples/corpus/fedex-rate/descriptors.js";
import { tempDir } from "../support/tmp.js";
import { matches } from "../../runtime/src/server/mock/dispatch.js";
import { matchOf } from "../../runtime/src/server/mock/record.js";
import { REDACTED } from "../../runtime/src/server/mock/types.js";

const input = {
  user: { email: "a@b.c", password: "s3cret", apiKey: "k-1", author: "Ann" },
  items: [{ id: 5n }, { id: 6n }],
  from: XsdDateTime.from("2024-01-01T00:00:00Z"),
  note: undefined,
  token: "t",
};

describe("a recording's match", () => {
  it("holds every input field by path in its JSON form, secrets redacted, nothing else", () => {
    const match = matchOf(input);
    expect(match).toEqual({
      "user.email": "a@b.c",
      "user.password": REDACTED,
      "user.apiKey": REDACTED,
      "user.author": "Ann",
      "items.0.id": "5",
      "items.1.id": "6",
      from: "2024-01-01T00:00:00Z",
      token: REDACTED,
    });
    expect(JSON.stringify(match)).not.toMatch(/s3cret|k-1|"t"/);
    // It matches the request it was made from, and the same with other secrets.
    expect(matches(match, input)).toBe(true);
    expect(matches(match, { ...input, token: "u", user: { ...input.user, password: "x" } })).toBe(
      true,
    );
    expect(matches(match, { ...input, items: [{ id: 5n }, { id: 7n }] })).toBe(false);
  });

  it("matches by dotted or indexed path; a number equals its text; absent is no match", () => {
    expect(matches({ "items[1].id": 6 }, input)).toBe(true);
    expect(matches({ "items.1.id": "6" }, input)).toBe(true);
    expect(matches({ "user.email": "x@y.z" }, input)).toBe(false);
    expect(matches({ "user.missing": "a" }, input)).toBe(false);
    expect(matches({ user: { email: "a@b.c" } }, input)).toBe(false);
    expect(matches({}, input)).toBe(true);
  });
});

describe("a mock's samples", () => {
  it("follow the seed: the seeded builder's value, varied across seeds, fixed without one", async () => {
    const dir = path.join(tempDir("mock-seed-"), "mocks");
    const answer = (seed?: number) =>
      createMocks({
        dir,
        services: [RateServiceDesc],
        ...(seed === undefined ? {} : { seed }),
      }).answer(RateServiceDesc, "getRates", undefined);
    expect(await answer()).toEqual(sampleOutput(RateServiceDesc, "getRates"));
    expect(await answer(7)).toEqual(sampleOutput(RateServiceDesc, "getRates", { seed: 7 }));
    const seen = new Set<string>();
    for (let seed = 1; seed <= 8; seed++)
      seen.add(JSON.stringify(await answer(seed), jsonReplacer));
    expect(seen.size).toBeGreaterThan(1);
  });
});

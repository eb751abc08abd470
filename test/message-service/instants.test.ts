/** The sortable UTC keys behind ordering and date ranges (examples/message-service/instants.ts). */
import { describe, expect, it } from "vitest";
import {
  boundKey,
  instantKey,
  KEY_AFTER_ALL,
  KEY_BEFORE_ALL,
} from "../../examples/message-service/instants.js";

describe("instantKey", () => {
  it("is a fixed-width UTC string; no offset counts as UTC, an offset is converted", () => {
    expect(instantKey("2024-03-10T12:00:00.1234567")).toBe("2024-03-10T12:00:00.123456700000Z");
    expect(instantKey("2024-01-05T10:00:00Z")).toBe(instantKey("2024-01-05T10:00:00"));
    expect(instantKey("2024-01-05T12:00:00+02:00")).toBe("2024-01-05T10:00:00.000000000000Z");
    expect(instantKey("2024-01-05T10:00:00-00:30")).toBe("2024-01-05T10:30:00.000000000000Z");
    // Offsets that move the instant into the previous or next day, month and year, and across 29 February.
    expect(instantKey("2024-01-01T01:00:00+05:30")).toBe("2023-12-31T19:30:00.000000000000Z");
    expect(instantKey("2023-12-31T22:00:00-14:00")).toBe("2024-01-01T12:00:00.000000000000Z");
    expect(instantKey("2024-03-01T00:15:00+01:00")).toBe("2024-02-29T23:15:00.000000000000Z");
    expect(instantKey("2023-03-01T00:15:00+01:00")).toBe("2023-02-28T23:15:00.000000000000Z");
  });

  it("reads a date alone as midnight and 24:00:00 as the next midnight", () => {
    expect(instantKey("2024-01-05")).toBe("2024-01-05T00:00:00.000000000000Z");
    expect(instantKey("2024-01-05+01:00")).toBe("2024-01-04T23:00:00.000000000000Z");
    expect(instantKey("2024-12-31T24:00:00")).toBe("2025-01-01T00:00:00.000000000000Z");
  });

  it("keeps every fraction digit: trailing zeros do not matter, more digits order correctly", () => {
    expect(instantKey("2024-01-05T10:00:00.1000000")).toBe(instantKey("2024-01-05T10:00:00.1"));
    const ascending = [
      "2024-03-10T12:00:00",
      "2024-03-10T12:00:00.0000001",
      "2024-03-10T12:00:00.1234567",
      "2024-03-10T12:00:00.12345670000001",
      "2024-03-10T12:00:00.12345671",
      "2024-03-10T12:00:00.123457",
      "2024-03-10T12:00:00.9999999999999",
      "2024-03-10T12:00:01",
    ];
    const keys = ascending.map(instantKey);
    expect([...keys].sort()).toEqual(keys);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("agrees with Date at millisecond precision over a wide span of instants and offsets", () => {
    let state = 7;
    // mulberry32: a small deterministic generator, so a failure can be reproduced.
    const rand = (n: number): number => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const pad = (n: number, w = 2) => String(n).padStart(w, "0");
    for (let i = 0; i < 2000; i++) {
      const ms = Date.UTC(1600, 0, 1) + rand(2147483647) * 100_000 + rand(100_000);
      const t = new Date(ms);
      const off = (rand(2) ? 1 : -1) * rand(14 * 60 + 1);
      const local = new Date(ms + off * 60_000);
      const lexical = `${local.toISOString().slice(0, 23)}${off < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
      expect(instantKey(lexical).slice(0, 23)).toBe(t.toISOString().slice(0, 23));
    }
  });

  it("rejects what is not an xs:dateTime, and instants outside years 0000..9999", () => {
    for (const bad of [
      "1/5/2024",
      "2024-01-05T10:00",
      "2024-13-01T00:00:00",
      "2023-02-29T00:00:00",
      " 2024-01-05T10:00:00",
      "",
      "2024-01-05T10:00:00+15:00",
    ]) {
      expect(() => instantKey(bad), bad).toThrow(RangeError);
    }
    expect(() => instantKey("10000-01-01T00:00:00")).toThrow(/outside the years 0000 to 9999/);
    expect(() => instantKey("9999-12-31T23:00:00-05:00")).toThrow(/outside/);
    expect(instantKey("0000-01-01T00:00:00")).toBe("0000-01-01T00:00:00.000000000000Z");
    expect(instantKey("9999-12-31T23:59:59.9999999")).toBe("9999-12-31T23:59:59.999999900000Z");
  });
});

describe("boundKey", () => {
  it("equals instantKey inside the years 0000..9999", () => {
    expect(boundKey("2024-01-05T12:00:00+02:00")).toBe(instantKey("2024-01-05T10:00:00"));
  });

  it("clamps bounds outside them, which are valid xs:dateTime values, instead of failing", () => {
    expect(boundKey("10000-01-01T00:00:00")).toBe(KEY_AFTER_ALL);
    expect(boundKey("123456789-01-01T00:00:00")).toBe(KEY_AFTER_ALL);
    expect(boundKey("9999-12-31T23:00:00-05:00")).toBe(KEY_AFTER_ALL);
    expect(boundKey("-0001-01-01T00:00:00")).toBe(KEY_BEFORE_ALL);
    expect(boundKey("0000-01-01T00:00:00+01:00")).toBe(KEY_BEFORE_ALL);
    expect(KEY_BEFORE_ALL < instantKey("0000-01-01T00:00:00")).toBe(true);
    expect(KEY_AFTER_ALL > instantKey("9999-12-31T23:59:59.99999999999999")).toBe(true);
    expect(() => boundKey("not-a-date")).toThrow(RangeError);
  });
});

import { describe, expect, it } from "vitest";
import { parseAsmxDateTime } from "../../runtime/src/scalars/asmx-dates.js";
import { formatScalar, parseScalar, ValueFormatError } from "../../runtime/src/scalars/scalars.js";
import {
  isTemporalLexical,
  matchesTemporal,
  XsdDate,
  XsdDateTime,
  XsdTime,
} from "../../runtime/src/scalars/temporal.js";

describe("xs:int parsing", () => {
  it("plain digits and the general forms give the same numbers; out-of-range and malformed values are refused", () => {
    const ok: [string, number][] = [
      ["0", 0],
      ["-0", 0],
      ["007", 7],
      ["999999999", 999999999],
      ["-999999999", -999999999],
      ["1234567890", 1234567890],
      ["2147483647", 2147483647],
      ["-2147483648", -2147483648],
      [" 5 ", 5],
      ["+5", 5],
      ["\n-12\t", -12],
    ];
    for (const [text, value] of ok)
      expect(Object.is(parseScalar("int", text), value), text).toBe(true);
    for (const bad of ["2147483648", "-2147483649", "5a", "", "-", "1.0", "1e3", "--1", "0x10"])
      expect(() => parseScalar("int", bad), bad).toThrow(ValueFormatError);
  });
});

describe("xs:dateTime validation", () => {
  const cases: [string, boolean][] = [
    ["2024-01-15T08:30:00", true],
    ["2024-01-15T08:30:00.1234567", true],
    ["2024-01-15T08:30:00Z", true],
    ["2024-01-15T08:30:00.5-05:30", true],
    ["2024-01-15T08:30:00+14:00", true],
    ["2024-01-15T08:30:00+13:59", true],
    ["2024-01-15T08:30:00+14:01", false],
    ["2024-01-15T08:30:00+15:00", false],
    ["2024-02-29T00:00:00", true],
    ["2023-02-29T00:00:00", false],
    ["2024-04-31T00:00:00", false],
    ["2024-01-31T23:59:59", true],
    ["2024-01-01T24:00:00", true],
    ["2024-01-01T24:00:00.0", true],
    ["2024-01-01T24:00:01", false],
    ["2024-01-01T23:60:00", false],
    ["2024-01-01T23:00:60", false],
    ["2024-13-01T00:00:00", false],
    ["2024-00-01T00:00:00", false],
    ["2024-01-00T00:00:00", false],
    ["12024-01-01T00:00:00", true],
    ["-0001-01-01T00:00:00", true],
    ["2024-01-01T00:00:00.", false],
    ["2024-01-01T00:00:00ZZ", false],
    ["2024-01-01T00:00:00+1400", false],
    ["2024-01-01T00:00:00+14:0", false],
    ["2024-1-01T00:00:00", false],
    ["2024-01-01 00:00:00", false],
    ["2024-01-01T00:00", false],
    ["2024-01-01T0a:00:00", false],
    ["", false],
  ];
  it("the quick check and the full one agree on each case", () => {
    for (const [text, valid] of cases) {
      expect(isTemporalLexical("dateTime", text), text).toBe(valid);
      expect(matchesTemporal("dateTime", text), text).toBe(valid);
    }
  });
  it("every one-character change of valid values is judged as the full check judges it", () => {
    const alphabet = "0123456789-+:.TZ ax/\u0660";
    let changed = 0;
    for (const [text, valid] of cases) {
      if (!valid) continue;
      for (let i = 0; i <= text.length; i++) {
        for (const c of alphabet) {
          for (const variant of [
            text.slice(0, i) + c + text.slice(i + 1),
            text.slice(0, i) + c + text.slice(i),
            text.slice(0, i) + text.slice(i + 1),
          ]) {
            expect(isTemporalLexical("dateTime", variant), variant).toBe(
              matchesTemporal("dateTime", variant),
            );
            changed++;
          }
        }
      }
    }
    expect(changed).toBeGreaterThan(10_000);
  });
});

describe("XsdDateTime", () => {
  it("keeps the lexical value exactly and converts to Date", () => {
    const d = new XsdDateTime("2024-03-10T12:00:00.1234567");
    expect(String(d)).toBe("2024-03-10T12:00:00.1234567");
    expect(JSON.stringify({ d })).toBe('{"d":"2024-03-10T12:00:00.1234567"}');
    expect(d.toDate().toISOString()).toBe("2024-03-10T12:00:00.123Z");
    expect(d.hasOffset).toBe(false);
    expect(new XsdDateTime("2024-01-05T10:00:00+02:00").toDate().toISOString()).toBe(
      "2024-01-05T08:00:00.000Z",
    );
    expect(new XsdDateTime("2024-01-05T10:00:00Z").hasOffset).toBe(true);
    expect(new XsdDateTime("2024-01-05").toDate().toISOString()).toBe("2024-01-05T00:00:00.000Z");
  });
  it("accepts Date and strings, rejects invalid values", () => {
    expect(XsdDateTime.from(new Date(Date.UTC(2024, 0, 5, 10))).lexical).toBe(
      "2024-01-05T10:00:00.000Z",
    );
    for (const bad of [
      "2024-02-30T00:00:00",
      "2024-01-05T25:00:00",
      "2024-01-05T10:00",
      "1/5/2024",
      "",
      "2024-01-05T10:00:00+15:00",
    ]) {
      expect(() => new XsdDateTime(bad), bad).toThrow(RangeError);
    }
    expect(new XsdDateTime("2024-02-29T23:59:59").lexical).toBe("2024-02-29T23:59:59");
    expect(() => new XsdDateTime("2023-02-29T00:00:00")).toThrow();
  });
  it("xs:date and xs:time", () => {
    expect(XsdDate.from(new Date(Date.UTC(2024, 1, 29))).lexical).toBe("2024-02-29");
    expect(new XsdTime("10:00:00.5Z").toDate().toISOString()).toBe("1970-01-01T10:00:00.500Z");
    expect(() => new XsdTime("24:01:00")).toThrow();
  });
  it("from: the same value back, a string as written, a Date in UTC, an invalid Date refused", () => {
    const at = new Date(Date.UTC(2024, 1, 29, 10, 5, 7, 25));
    expect(XsdTime.from(at).lexical).toBe("10:05:07.025Z");
    expect(XsdDate.from("2024-02-29+01:00").lexical).toBe("2024-02-29+01:00");
    const date = new XsdDate("2024-02-29");
    expect(XsdDate.from(date)).toBe(date);
    const invalid = new Date(Number.NaN);
    expect(() => XsdDateTime.from(invalid)).toThrow("invalid Date given for an xs:dateTime value");
    expect(() => XsdDate.from(invalid)).toThrow("invalid Date given for an xs:date value");
    expect(() => XsdTime.from(invalid)).toThrow("invalid Date given for an xs:time value");
    expect(() => XsdDate.from("2024-02-30")).toThrow("'2024-02-30' is not a valid xs:date value");
  });
});

describe("scalars", () => {
  it("parses integers by XSD rules and range", () => {
    expect(parseScalar("int", " 102 ")).toBe(102);
    expect(parseScalar("int", "+102")).toBe(102);
    for (const bad of ["abc", "101.0", "2147483648", ""])
      expect(() => parseScalar("int", bad), bad).toThrow(ValueFormatError);
    expect(parseScalar("long", "9223372036854775807")).toBe(9223372036854775807n);
    expect(() => parseScalar("long", "9223372036854775808")).toThrow(ValueFormatError);
    expect(parseScalar("unsignedLong", "18446744073709551615")).toBe(18446744073709551615n);
    expect(parseScalar("decimal", "  12345678901234567890.123456789 ")).toBe(
      "12345678901234567890.123456789",
    );
  });
  it("parses booleans, floats and binaries", () => {
    expect(parseScalar("boolean", "1")).toBe(true);
    expect(() => parseScalar("boolean", "yes")).toThrow();
    expect(parseScalar("double", "-INF")).toBe(-Infinity);
    expect(Number.isNaN(parseScalar("double", "NaN"))).toBe(true);
    expect(parseScalar("base64Binary", "AQID")).toEqual(new Uint8Array([1, 2, 3]));
  });
  it("formats values and refuses the wrong kind", () => {
    expect(formatScalar("long", 12n)).toBe("12");
    expect(formatScalar("long", 12)).toBe("12");
    expect(formatScalar("double", Infinity)).toBe("INF");
    expect(formatScalar("dateTime", "2024-01-05")).toBe("2024-01-05");
    expect(() => formatScalar("int", 1.5)).toThrow(ValueFormatError);
    expect(() => formatScalar("int", "1")).toThrow(ValueFormatError);
    expect(() => formatScalar("dateTime", "yesterday")).toThrow(ValueFormatError);
    expect(formatScalar("hexBinary", new Uint8Array([255, 1]))).toBe("FF01");
  });
});

describe("ASMX date parameters (recorded dateNN cases)", () => {
  const cases: [string, string | undefined][] = [
    ["2024-01-05", "2024-01-05T00:00:00"],
    ["2024-01-05T10:00:00", "2024-01-05T10:00:00"],
    ["2024-01-05T10:00:00Z", "2024-01-05T10:00:00Z"],
    ["2024-01-05T10:00:00+02:00", "2024-01-05T10:00:00+02:00"],
    ["2024-01-05T10:00:00.0000000", "2024-01-05T10:00:00.0000000"],
    ["2024-01-05T10:00", "2024-01-05T10:00:00"],
    ["1/5/2024", "2024-01-05T00:00:00"],
    ["1/5/2024 10:00:00 AM", "2024-01-05T10:00:00"],
    ["1/5/2024 12:30:00 PM", "2024-01-05T12:30:00"],
    ["05/01/2024", "2024-05-01T00:00:00"],
    ["2024-01-05 10:00:00", "2024-01-05T10:00:00"],
    ["Fri, 05 Jan 2024 10:00:00 GMT", "2024-01-05T10:00:00Z"],
    ["Jan 5 2024 10:00", "2024-01-05T10:00:00"],
    ["20240105T100000", undefined],
    ["not-a-date", undefined],
    ["", undefined],
    ["13/1/2024", undefined],
  ];
  for (const [input, expected] of cases)
    it(JSON.stringify(input), () => expect(parseAsmxDateTime(input)).toBe(expected));
});

describe("a base64Binary value that is a Blob or a stream", () => {
  it("is refused as text by name, saying it goes only as an MTOM attachment", () => {
    for (const value of [new Blob([new Uint8Array([1])]), new ReadableStream()]) {
      expect(() => formatScalar("base64Binary", value)).toThrow(ValueFormatError);
      expect(() => formatScalar("base64Binary", value)).toThrow(/only as an MTOM attachment/);
    }
    expect(formatScalar("base64Binary", new Uint8Array([1, 2]))).toBe("AQI=");
  });
});

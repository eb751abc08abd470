/**
 * Scalar values read straight from the source of an element that holds text only (see
 * Decoder.leafRange): an xs:int of plain digits or an xs:boolean is read in its Latin-1 view (or
 * its text) without a string made of it; anything else is left to the string path (undefined).
 */
import type { ScalarDesc } from "../descriptors/types.js";
import type { Source } from "./chars.js";
import { plainIntIn } from "../scalars/scalars.js";

/** The value of the scalar at `start .. end` of `src`, when it is read in place; else undefined. */
export function valueInSource(
  desc: ScalarDesc,
  src: Source,
  start: number,
  end: number,
): number | boolean | undefined {
  // An enumeration is checked, and a list split, on the string path.
  if (desc.list === true || desc.values !== undefined || end <= start) return undefined;
  if (desc.s === "int") return plainIntIn(src.xml, start, end);
  if (desc.s === "boolean") return booleanIn(src.xml, start, end);
  return undefined;
}

/** The boolean at `start .. end` of `xml` when it is written without spaces; else undefined. */
function booleanIn(xml: string, start: number, end: number): boolean | undefined {
  const n = end - start;
  if (n === 1) {
    const c = xml.charCodeAt(start);
    return c === 49 ? true : c === 48 ? false : undefined;
  }
  if (n === 4 && xml.startsWith("true", start)) return true;
  if (n === 5 && xml.startsWith("false", start)) return false;
  return undefined;
}

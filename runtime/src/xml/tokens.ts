/**
 * What the tokenizer reports (start tags and their attributes) and to whom (`TokenHandler`): in a
 * module of their own, so that start-tag parsing and the decoder use them without importing the
 * tokenizer.
 */
import type { Source } from "./chars.js";

export interface XmlAttribute {
  readonly name: string;
  readonly prefix: string;
  readonly local: string;
  /** The attribute's namespace; "" when unprefixed. */
  readonly uri: string;
  readonly value: string;
}

export interface XmlTag {
  readonly name: string;
  readonly local: string;
  readonly uri: string;
  readonly attributes: readonly XmlAttribute[];
  /**
   * The namespaces in scope by prefix ("" for the default), to resolve QName values such as
   * `xsi:type`.
   */
  readonly scope: Readonly<Record<string, string>>;
  /** Where the start tag begins in the document (its `<`), to locate problems with the element. */
  readonly offset: number;
}

export interface TokenHandler {
  /** A start tag. `tag` is reused for the next one: copy what must outlive the call. */
  open(tag: XmlTag): void;
  close(): void;
  text(text: string): void;
  /**
   * Optional: an element that holds text only (or nothing) and ends with an exact end tag, reported
   * at once rather than as open, text and close. `text` is "" when it is empty.
   */
  leaf?(tag: XmlTag, text: string): void;
  /**
   * Optional, preferred to `leaf`: the same element with its text as `start .. end` of `src` (read
   * by `textBetween`), for a handler that reads some values in the source without a string.
   */
  leafRange?(tag: XmlTag, src: Source, start: number, end: number): void;
}

/**
 * The mock's response files as values: what `mocks/<Operation>/*.json|*.xml` hold once read and
 * checked against the operation's descriptor, and the dispatch settings of `mocks/config.json`.
 */

/** How the answers of an operation with no matching file are chosen (SoapUI's SEQUENCE, RANDOM). */
export type DispatchStyle = "sequence" | "random";

/** A fault a response file answers with: the SOAP fault's code, string and detail. */
export interface MockFault {
  /** `Client`/`Sender` or `Server`/`Receiver`, mapped to the request's SOAP version. */
  readonly code: string;
  readonly message: string;
  /** XML text placed inside the fault's detail element. */
  readonly detail?: string;
  /** The HTTP status (4xx or 5xx; default 500). */
  readonly status?: number;
}

/** One response file, read and checked. */
export interface MockResponse {
  /** The file, relative to the mocks folder, with `/` (`GetMessages/alice.json`). */
  readonly file: string;
  /**
   * Input fields by dotted path (`range.from`, `items.0.id`) and the value each must have, in its
   * JSON form; empty for a file that matches any request. The placeholder `REDACTED` matches any.
   */
  readonly match: Readonly<Record<string, unknown>>;
  /** The answer: the typed result (decoded through the descriptor), or a fault. */
  readonly answer: { readonly value: unknown } | { readonly fault: MockFault };
}

/** `mocks/config.json`. */
export interface MockConfig {
  /** Among the files that match no request field: in turn (default), or a seeded random pick. */
  readonly dispatch?: DispatchStyle;
  /** The seed of random picks and of the sample values an operation without files answers. */
  readonly seed?: number;
  /** Per operation (by WSDL name): its own dispatch style. */
  readonly operations?: Readonly<Record<string, { readonly dispatch?: DispatchStyle }>>;
}

/** What recorded files hold instead of a password-like value; as a match it matches any. */
export const REDACTED = "[redacted]";

/** A response file, or the config, that cannot be used: where, and why. */
export interface MockProblem {
  readonly file: string;
  readonly message: string;
}

/** The problems of the mocks folder, found when it is read (at start), each naming its file. */
export class MockFileError extends Error {
  constructor(readonly problems: readonly MockProblem[]) {
    super(problems.map((p) => `${p.file}: error: ${p.message}`).join("\n"));
    this.name = "MockFileError";
  }
}

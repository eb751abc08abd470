/**
 * The seed and import file format (fixtures/message-service/asmx/seed.json): its types, and checks
 * that name the offending entry, so that nothing enters the store that the service could not send
 * back (an id outside xs:int, a date that is not xs:dateTime, a character XML 1.0 cannot carry).
 */
import { readFileSync } from "node:fs";
import { instantKey } from "./instants.js";

/** A message as a seed or import file gives it; an absent text field is the same as null. */
export interface SeedMessage {
  readonly Id: number;
  /** An xs:dateTime lexical value, kept exactly as written. */
  readonly DateArrived: string;
  readonly Sender?: string | null;
  readonly MessageText?: string | null;
  readonly MessageUrl?: string | null;
  readonly Transcription?: string | null;
}

export interface SeedAccount {
  readonly email: string;
  /** In clear in the file; the store keeps only an scrypt hash. */
  readonly password: string;
  readonly userId: number;
  readonly messages?: readonly SeedMessage[];
}

export interface SeedFile {
  readonly comment?: string;
  readonly accounts: readonly SeedAccount[];
}

/** A file or value that does not have the seed format; the message says where and why. */
export class SeedFormatError extends Error {
  override readonly name = "SeedFormatError";
}

export const TEXT_FIELDS = ["Sender", "MessageText", "MessageUrl", "Transcription"] as const;
const MESSAGE_FIELDS: readonly string[] = ["Id", "DateArrived", ...TEXT_FIELDS];
const ACCOUNT_FIELDS: readonly string[] = ["email", "password", "userId", "messages"];
const FILE_FIELDS: readonly string[] = ["comment", "accounts"];
// C0 controls other than TAB, LF and CR; U+FFFE, U+FFFF; unpaired surrogates.
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function fail(where: string, what: string): never {
  throw new SeedFormatError(`${where}: ${what}`);
}

function record(
  value: unknown,
  where: string,
  allowed: readonly string[],
): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return fail(where, "must be a JSON object");
  for (const k of Object.keys(value))
    if (!allowed.includes(k)) fail(where, `unknown field '${k}' (allowed: ${allowed.join(", ")})`);
  return value as Record<string, unknown>;
}

/** Whether `n` is an xs:int: the type of the ids on the wire. */
export function isXsInt(n: unknown): n is number {
  return typeof n === "number" && Number.isInteger(n) && n >= -2147483648 && n <= 2147483647;
}

export function checkId(value: unknown, where: string): number {
  return isXsInt(value)
    ? value
    : fail(
        where,
        `must be an integer from -2147483648 to 2147483647 (xs:int), got ${JSON.stringify(value) ?? "nothing"}`,
      );
}

/** Checks one message and returns it with absent text fields made null. */
export function checkMessage(value: unknown, where: string): Required<SeedMessage> {
  const m = record(value, where, MESSAGE_FIELDS);
  const Id = checkId(m["Id"], `${where}.Id`);
  const date = m["DateArrived"];
  if (typeof date !== "string")
    fail(`${where}.DateArrived`, "must be a string holding an xs:dateTime value");
  try {
    instantKey(date);
  } catch (e) {
    fail(`${where}.DateArrived`, (e as Error).message);
  }
  const text = (field: (typeof TEXT_FIELDS)[number]): string | null => {
    const v = m[field];
    if (v === undefined || v === null) return null;
    if (typeof v !== "string") return fail(`${where}.${field}`, "must be a string or null");
    if (NOT_XML.test(v)) fail(`${where}.${field}`, "holds a character that XML 1.0 cannot carry");
    return v;
  };
  return {
    Id,
    DateArrived: date,
    Sender: text("Sender"),
    MessageText: text("MessageText"),
    MessageUrl: text("MessageUrl"),
    Transcription: text("Transcription"),
  };
}

/** Checks a JSON array of messages (an import file); ids must be unique within it. */
export function checkMessages(value: unknown, where: string): Required<SeedMessage>[] {
  if (!Array.isArray(value)) return fail(where, "must be a JSON array of messages");
  const seen = new Set<number>();
  return value.map((v, i) => {
    const m = checkMessage(v, `${where}[${i}]`);
    if (seen.has(m.Id)) fail(`${where}[${i}].Id`, `the id ${m.Id} appears twice`);
    seen.add(m.Id);
    return m;
  });
}

export function checkAccount(
  email: unknown,
  password: unknown,
  userId: unknown,
  where: string,
): void {
  if (typeof email !== "string" || email.trim() === "" || email.trim() !== email)
    fail(`${where}.email`, "must be a non-empty string without surrounding spaces");
  if (typeof password !== "string" || password === "")
    fail(`${where}.password`, "must be a non-empty string");
  checkId(userId, `${where}.userId`);
}

/** Checks a whole seed file: e-mails (ignoring case), user ids and message ids unique across it. */
export function checkSeed(value: unknown, where = "seed"): SeedFile {
  const file = record(value, where, FILE_FIELDS);
  const accounts = file["accounts"];
  if (!Array.isArray(accounts))
    return fail(`${where}.accounts`, "must be a JSON array of accounts");
  const emails = new Set<string>();
  const users = new Set<number>();
  const ids = new Set<number>();
  const checked = accounts.map((v, i): SeedAccount => {
    const at = `${where}.accounts[${i}]`;
    const a = record(v, at, ACCOUNT_FIELDS);
    checkAccount(a["email"], a["password"], a["userId"], at);
    const email = a["email"] as string;
    const userId = a["userId"] as number;
    if (emails.has(email.toLowerCase())) fail(`${at}.email`, `${email} appears twice`);
    if (users.has(userId)) fail(`${at}.userId`, `${userId} appears twice`);
    emails.add(email.toLowerCase());
    users.add(userId);
    const messages =
      a["messages"] === undefined ? [] : checkMessages(a["messages"], `${at}.messages`);
    messages.forEach((m, j) => {
      if (ids.has(m.Id))
        fail(`${at}.messages[${j}].Id`, `the id ${m.Id} appears twice in the file`);
      ids.add(m.Id);
    });
    return { email, password: a["password"] as string, userId, messages };
  });
  return { accounts: checked };
}

/** Reads a JSON file; errors name the file. */
export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new SeedFormatError(
      code === "ENOENT"
        ? `${file}: no such file`
        : `${file}: cannot be read (${code ?? (e as Error).message})`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new SeedFormatError(`${file}: not valid JSON (${(e as Error).message})`);
  }
}

export const readSeedFile = (file: string): SeedFile => checkSeed(readJsonFile(file), file);
export const readMessagesFile = (file: string): Required<SeedMessage>[] =>
  checkMessages(readJsonFile(file), file);

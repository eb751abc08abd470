/** The values the recordings must decode to, built from seed.json. */
import { XsdDateTime } from "@wsdl-tsgen/runtime";
import { SEED, type SeedMessage } from "./captures.js";

export interface PlainMessage {
  DateArrived: string;
  UserId: number;
  Sender?: string;
  MessageText?: string;
  MessageUrl?: string;
  Transcription?: string;
  Id: number;
}

/** A seed message as the API returns it: null fields absent, DateArrived as its lexical text. */
export function plain(m: SeedMessage, userId: number): PlainMessage {
  const out: PlainMessage = { DateArrived: m.DateArrived, UserId: userId, Id: m.Id };
  if (m.Sender !== null) out.Sender = m.Sender;
  if (m.MessageText !== null) out.MessageText = m.MessageText;
  if (m.MessageUrl !== null) out.MessageUrl = m.MessageUrl;
  if (m.Transcription !== null) out.Transcription = m.Transcription;
  return out;
}

export function seedMessages(email: string, ids?: readonly number[]): PlainMessage[] {
  const account = SEED.accounts.find((a) => a.email === email)!;
  return account.messages
    .filter((m) => ids === undefined || ids.includes(m.Id))
    .map((m) => plain(m, account.userId));
}

/** Decoded messages with their DateArrived turned into text (after checking it is a value object). */
export function asPlain(
  list: readonly ({ DateArrived: unknown } | null)[] | undefined,
): PlainMessage[] {
  return (list ?? []).map((m) => {
    if (!(m!.DateArrived instanceof XsdDateTime))
      throw new Error(`DateArrived decoded as ${typeof m!.DateArrived}, not an XsdDateTime`);
    return { ...(m as object), DateArrived: String(m!.DateArrived) } as PlainMessage;
  });
}

/** A message as both stores keep it: its row, the columns read, the values written. */
import { instantKey } from "./instants.js";
import type { SeedMessage, StoredMessage } from "./store.js";

/** A message row, as both stores read it. */
export interface MessageRow {
  id: number;
  user_id: number;
  date_arrived: string;
  sender: string | null;
  message_text: string | null;
  message_url: string | null;
  transcription: string | null;
}

export const COLUMNS =
  "id, user_id, date_arrived, sender, message_text, message_url, transcription";

export const toMessage = (r: MessageRow): StoredMessage => ({
  Id: r.id,
  UserId: r.user_id,
  DateArrived: r.date_arrived,
  Sender: r.sender,
  MessageText: r.message_text,
  MessageUrl: r.message_url,
  Transcription: r.transcription,
});

/** The row values of a checked message, in the order of the INSERT statements of both stores. */
export const messageValues = (m: SeedMessage, userId: number): unknown[] => [
  m.Id,
  userId,
  m.DateArrived,
  instantKey(m.DateArrived),
  m.Sender ?? null,
  m.MessageText ?? null,
  m.MessageUrl ?? null,
  m.Transcription ?? null,
];

/**
 * The Message Retrieval Service: the generated `ApiService` interface implemented on the store, with
 * the rules the recorded ASMX service followed (fixtures/message-service/asmx/README.md): every call
 * authenticates; lists are ordered by DateArrived then Id; date ranges include both bounds and compare
 * instants (no offset = UTC); deleting an id that is not the caller's is a Client fault that reads the
 * same whether or not the id exists in another account.
 */
import {
  SoapFault,
  type ApiService,
  type MessagesInput,
} from "../../generated-samples/message-service/index.js";
import { boundKey } from "./instants.js";
import { isXsInt } from "./seed-file.js";
import type { MessageStore, StoredMessage } from "./store.js";

export const INVALID_CREDENTIALS = "Invalid email or password.";
export const noMessage = (id: number): string => `No message with id ${id}.`;

/** A stored message as the API returns it: a null field is left out, an empty string kept. */
export function toApiMessage(m: StoredMessage): MessagesInput {
  const out: MessagesInput = { DateArrived: m.DateArrived, UserId: m.UserId, Id: m.Id };
  if (m.Sender !== null) out.Sender = m.Sender;
  if (m.MessageText !== null) out.MessageText = m.MessageText;
  if (m.MessageUrl !== null) out.MessageUrl = m.MessageUrl;
  if (m.Transcription !== null) out.Transcription = m.Transcription;
  return out;
}

export function createMessageService(store: MessageStore): ApiService {
  /** The caller's user id; a Client fault for an absent, empty or wrong e-mail or password. */
  const authenticate = (email: string | undefined, password: string | undefined): number => {
    const userId = email && password ? store.authenticate(email, password) : undefined;
    if (userId === undefined) throw new SoapFault({ code: "Client", message: INVALID_CREDENTIALS });
    return userId;
  };
  return {
    getMessages({ email, password }) {
      return store.listMessages(authenticate(email, password)).map(toApiMessage);
    },
    getMessagesInDateRange({ email, password, startDate, endDate }) {
      const userId = authenticate(email, password);
      // The lexical form keeps every fraction digit and the offset; a date alone means midnight.
      const start = boundKey(startDate.lexical);
      const end = boundKey(endDate.lexical);
      return start > end ? [] : store.listMessagesInRange(userId, start, end).map(toApiMessage);
    },
    deleteMessage({ email, password, MessageId }) {
      const userId = authenticate(email, password);
      // Unknown and foreign ids get the same answer: whether an id exists elsewhere must not leak.
      if (!isXsInt(MessageId) || !store.deleteMessage(userId, MessageId)) {
        throw new SoapFault({ code: "Client", message: noMessage(MessageId) });
      }
    },
  };
}

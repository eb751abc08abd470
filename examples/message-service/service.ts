/** The Message Retrieval Service: the generated `ApiService` interface, implemented on the store. */
import { SoapFault, type ApiService, type MessagesInput } from "../../generated-samples/message-service/index.js";
import { instantKey } from "./instants.js";
import type { MessageStore, StoredMessage } from "./store.js";

/** A stored message as the API returns it: a null field is left out, an empty string kept. */
function toApi(m: StoredMessage): MessagesInput {
  const out: MessagesInput = { DateArrived: m.DateArrived, UserId: m.UserId, Id: m.Id };
  if (m.Sender !== null) out.Sender = m.Sender;
  if (m.MessageText !== null) out.MessageText = m.MessageText;
  if (m.MessageUrl !== null) out.MessageUrl = m.MessageUrl;
  if (m.Transcription !== null) out.Transcription = m.Transcription;
  return out;
}

export function createMessageService(store: MessageStore): ApiService {
  const authenticate = (email: string | undefined, password: string | undefined): number => {
    const userId = email && password ? store.authenticate(email, password) : undefined;
    if (userId === undefined) throw new SoapFault({ code: "Client", message: "Invalid email or password." });
    return userId;
  };
  return {
    getMessages({ email, password }) {
      return store.listMessages(authenticate(email, password)).map(toApi);
    },
    getMessagesInDateRange({ email, password, startDate, endDate }) {
      const userId = authenticate(email, password);
      const start = instantKey(startDate.lexical);
      const end = instantKey(endDate.lexical);
      return start > end ? [] : store.listMessagesInRange(userId, start, end).map(toApi);
    },
    deleteMessage({ email, password, MessageId }) {
      const userId = authenticate(email, password);
      // Unknown and foreign ids get the same answer: whether an id exists elsewhere must not leak.
      if (!store.deleteMessage(userId, MessageId)) throw new SoapFault({ code: "Client", message: `No message with id ${MessageId}.` });
    },
  };
}


/** The Message Retrieval Service's interface, answering GetMessages and recording who signed it. */
import type { X509Certificate } from "node:crypto";
import type { ApiService, MessagesInput } from "../../generated-samples/message-service/index.js";

/** Each GetMessages call pushes its `context.signer` onto `signers` and answers `messages`. */
export function signerRecording(
  signers: (X509Certificate | undefined)[],
  messages: readonly MessagesInput[] = [],
): ApiService {
  return {
    getMessages: (_input, ctx) => {
      signers.push(ctx.signer);
      return [...messages];
    },
    getMessagesInDateRange: () => [],
    deleteMessage: () => undefined,
  };
}

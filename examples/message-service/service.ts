/**
 * The Message Retrieval Service: the generated `ApiService` interface implemented on the store,
 * with the rules the recorded ASMX service followed (fixtures/message-service/asmx/README.md):
 * every call authenticates; lists are ordered by DateArrived then Id; date ranges include both
 * bounds and compare instants (no offset = UTC); deleting an id that is not the caller's is a
 * Client fault that reads the same whether or not the id exists in another account.
 */
import type { IncomingHttpHeaders } from "node:http";
import { plainAddress } from "@wsdl-tsgen/runtime";
import {
  SoapFault,
  type ApiService,
  type MessagesInput,
} from "../../generated-samples/message-service/index.js";
import { Authenticator, type AuthOptions } from "./auth.js";
import { boundKey } from "./instants.js";
import { isXsInt } from "./seed-file.js";
import { StoreUnavailableError } from "./store-guard.js";
import type { MessageStore, StoredMessage } from "./store.js";

export const INVALID_CREDENTIALS = "Invalid email or password.";
export const TOO_MANY_FAILURES = "Too many failed attempts; try again later.";
export const BUSY = "The service is busy; try again shortly.";
export const UNAVAILABLE = "The service is unavailable; try again shortly.";
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

/**
 * The client's address, for counting failed logins: the peer's, unless the peer is a trusted proxy
 * (a balancer), then the nearest address in X-Forwarded-For that is not one. An untrusted peer's
 * X-Forwarded-For is ignored: anyone can write one.
 */
export function clientAddress(
  ctx: { readonly remoteAddress: string | undefined; readonly headers: IncomingHttpHeaders },
  trustedProxies: ReadonlySet<string>,
): string | undefined {
  let address = ctx.remoteAddress && plainAddress(ctx.remoteAddress);
  const forwarded = String(ctx.headers["x-forwarded-for"] ?? "").split(",");
  while (address !== undefined && trustedProxies.has(address) && forwarded.length > 0) {
    const next = plainAddress(forwarded.pop()!);
    if (next === "") break;
    address = next;
  }
  return address;
}

/** The caller's user id, or the fault that answers them. */
async function authenticate(
  auth: Authenticator,
  creds: { email?: string | undefined; password?: string | undefined },
  address: string | undefined,
): Promise<number> {
  // Absent or empty credentials cannot match: no KDF, and no failure counted.
  const r =
    creds.email && creds.password
      ? await auth.verify(creds.email, creds.password, address)
      : undefined;
  if (r?.kind === "ok") return r.userId;
  if (r?.kind === "throttled") throw new SoapFault({ code: "Client", message: TOO_MANY_FAILURES });
  // 503 rather than 500: the request was fine and may be sent again, in a second.
  if (r?.kind === "busy")
    throw new SoapFault({ code: "Server", message: BUSY, httpStatus: 503, retryAfterSeconds: 1 });
  throw new SoapFault({ code: "Client", message: INVALID_CREDENTIALS });
}

/**
 * `work`'s result; a database outage becomes a 503 Server fault with Retry-After (Receiver in SOAP
 * 1.2, 503 over HTTP GET and POST too): the request was fine and may be sent again.
 */
async function whileAvailable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw asFault(e);
  }
}

/** A database outage as the 503 Server fault that answers it; any other error as it is. */
function asFault(e: unknown): unknown {
  if (!(e instanceof StoreUnavailableError)) return e;
  return new SoapFault({
    code: "Server",
    message: UNAVAILABLE,
    httpStatus: 503,
    retryAfterSeconds: 1,
  });
}

/**
 * The stored messages as the API returns them, streamed from the store's cursor: the server pulls
 * the first before it writes a byte, so an outage at the cursor's opening is answered as a 503
 * fault; after the first bytes an error closes the connection. Closing this closes the cursor.
 */
async function* apiMessages(rows: AsyncIterable<StoredMessage>): AsyncGenerator<MessagesInput> {
  try {
    for await (const m of rows) yield toApiMessage(m);
  } catch (e) {
    throw asFault(e);
  }
}

export interface ServiceOptions {
  /**
   * Peers whose X-Forwarded-For names the client (balancers), e.g. `["10.0.0.2"]`. Default: none.
   */
  readonly trustedProxies?: readonly string[];
}

export function createMessageService(
  store: MessageStore,
  auth: Authenticator | AuthOptions = {},
  options: ServiceOptions = {},
): ApiService {
  const authenticator = auth instanceof Authenticator ? auth : new Authenticator(store, auth);
  const trusted = new Set((options.trustedProxies ?? []).map(plainAddress));
  type Ctx = Parameters<typeof clientAddress>[0];
  const check = (creds: Parameters<typeof authenticate>[1], ctx: Ctx) =>
    authenticate(authenticator, creds, clientAddress(ctx, trusted));
  return {
    getMessages: (input, ctx) =>
      whileAvailable(async () => {
        const userId = await check(input, ctx);
        // Authenticated before the result is returned: a wrong password is a fault, not a stream.
        return apiMessages(store.streamMessages(userId));
      }),
    getMessagesInDateRange: (input, ctx) =>
      whileAvailable(async () => {
        const userId = await check(input, ctx);
        // The lexical form keeps every fraction digit and the offset; a date alone means midnight.
        const start = boundKey(input.startDate.lexical);
        const end = boundKey(input.endDate.lexical);
        if (start > end) return [];
        return apiMessages(store.streamMessagesInRange(userId, start, end));
      }),
    deleteMessage: (input, ctx) =>
      whileAvailable(async () => {
        const userId = await check(input, ctx);
        const id = input.MessageId;
        // Unknown and foreign ids get the same answer: whether an id exists elsewhere must not
        // leak.
        if (!isXsInt(id) || !(await store.deleteMessage(userId, id))) {
          throw new SoapFault({ code: "Client", message: noMessage(id) });
        }
      }),
  };
}

/**
 * The three ways of fetching GetMessages the decode benchmark compares, behind one shape:
 * our generated ApiClient (port ApiSoap), node-soap's client, and fetching the bytes alone.
 */
import type { Messages } from "../generated-samples/message-service/index.js";
import { ABSENT, ACCOUNT, NS, recordedSoapRequest, WSDL_PATH, type MessageView } from "./data.js";

export type ClientKind = "ours" | "node-soap" | "fetch";
export const CLIENT_KINDS: readonly ClientKind[] = ["ours", "node-soap", "fetch"];

/** A result reduced to what can be compared across clients and processes. */
export interface Summary {
  readonly count: number;
  readonly firstId: number | undefined;
  readonly lastId: number | undefined;
}

export interface BenchClient<R> {
  call(): Promise<R>;
  summary(result: R): Summary;
  /** Each message as comparable text (undefined for the bytes-only client). */
  views?(result: R): MessageView[];
}

/** node-soap's decoded message, as far as this benchmark reads it. */
interface NodeSoapMessage {
  readonly DateArrived?: Date | string;
  readonly UserId?: number | string;
  readonly Sender?: string;
  readonly MessageText?: string;
  readonly MessageUrl?: string;
  readonly Transcription?: string;
  readonly Id?: number | string;
}
type NodeSoapResult = {
  GetMessagesResult?: { Messages?: NodeSoapMessage | NodeSoapMessage[] };
} | null;

/** The one method of node-soap's (untyped, index-signature) client this benchmark calls. */
interface NodeSoapClient {
  GetMessagesAsync(args: {
    email: string;
    password: string;
  }): Promise<[NodeSoapResult, ...unknown[]]>;
}

const text = (v: unknown): string =>
  v === undefined || v === null ? ABSENT : typeof v === "string" ? v : JSON.stringify(v);

export async function createClient(
  kind: ClientKind,
  endpoint: string,
): Promise<BenchClient<unknown>> {
  // Each client's code is loaded only for that client, so that a process measuring one (the memory
  // runs) holds nothing of the others.
  if (kind === "ours") {
    const { ApiClient } = await import("../generated-samples/message-service/index.js");
    const client = new ApiClient({ endpoint });
    const c: BenchClient<(Messages | null)[]> = {
      call: async () => (await client.getMessages({ ...ACCOUNT })) ?? [],
      summary: (list) => ({
        count: list.length,
        firstId: list[0]?.Id,
        lastId: list[list.length - 1]?.Id,
      }),
      views: (list) =>
        list.map((m) =>
          m === null
            ? { id: NaN, fields: [] }
            : {
                id: m.Id,
                fields: [
                  m.DateArrived.lexical,
                  String(m.UserId),
                  text(m.Sender),
                  text(m.MessageText),
                  text(m.MessageUrl),
                  text(m.Transcription),
                ],
              },
        ),
    };
    return c as BenchClient<unknown>;
  }
  if (kind === "node-soap") {
    const soap = await import("soap");
    const client = (await soap.createClientAsync(WSDL_PATH, {
      endpoint,
    })) as unknown as NodeSoapClient;
    const listOf = (r: NodeSoapResult): NodeSoapMessage[] => {
      const m = r?.GetMessagesResult?.Messages;
      return m === undefined ? [] : Array.isArray(m) ? m : [m];
    };
    const c: BenchClient<NodeSoapMessage[]> = {
      call: async () => listOf((await client.GetMessagesAsync({ ...ACCOUNT }))[0]),
      summary: (list) => ({
        count: list.length,
        firstId: numberOf(list[0]?.Id),
        lastId: numberOf(list[list.length - 1]?.Id),
      }),
      views: (list) =>
        list.map((m) => ({
          id: numberOf(m.Id) ?? NaN,
          // node-soap gives a Date: compare it as the ISO instant (milliseconds; the worker runs with TZ=UTC).
          fields: [
            m.DateArrived instanceof Date ? m.DateArrived.toISOString() : text(m.DateArrived),
            text(String(m.UserId)),
            text(m.Sender),
            text(m.MessageText),
            text(m.MessageUrl),
            text(m.Transcription),
          ],
        })),
    };
    return c as BenchClient<unknown>;
  }
  const body = recordedSoapRequest();
  const c: BenchClient<ArrayBuffer> = {
    call: async () => {
      const res = await fetch(endpoint, {
        method: "POST",
        headers: { "Content-Type": "text/xml; charset=utf-8", SOAPAction: `"${NS}GetMessages"` },
        body,
      });
      return res.arrayBuffer();
    },
    summary: (buf) => ({ count: buf.byteLength, firstId: undefined, lastId: undefined }),
  };
  return c as BenchClient<unknown>;
}

function numberOf(v: number | string | undefined): number | undefined {
  return v === undefined ? undefined : Number(v);
}

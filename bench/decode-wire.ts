/**
 * Child process for "decode ÷ fetch alone" (issue 47): in one process, interleaved, gc before every
 * call, the same bytes from the same loopback byte server:
 *   fetch    `fetch` + `res.text()` alone (the wire, and the cheapest reading of it);
 *   chunked  our generated client's getMessages (the body decoded as it arrives);
 *   whole    `fetch` + `res.arrayBuffer()`, then decodeEnvelope on all the bytes at once;
 *   node-soap  node-soap's client (its peer figure, on the same baseline).
 * Usage: decode-wire.ts <url> <rounds> [warm-up]. Replies { times, cpu } (ms per call, by kind).
 */
import { field } from "@wsdl-tsgen/runtime";
import { decodeEnvelope } from "@wsdl-tsgen/runtime/internal";
import { ApiClient } from "../generated-samples/message-service/index.js";
import { GetMessagesResponse } from "../generated-samples/message-service/descriptors.js";
import { createClient } from "./clients.js";
import { ACCOUNT, NS, recordedSoapRequest } from "./data.js";
import { WIRE_KINDS, type WireKind, type WireReport } from "./protocol.js";
import { gc, reply } from "./util.js";

const [url = "", roundsText = "9", warmText = "6"] = process.argv.slice(2);
const request = recordedSoapRequest();
const post = () =>
  fetch(url, {
    method: "POST",
    headers: { "Content-Type": "text/xml; charset=utf-8", SOAPAction: `"${NS}GetMessages"` },
    body: request,
  });
const client = new ApiClient({ endpoint: url });
const response = field("GetMessagesResponse", NS, () => GetMessagesResponse);

const nodeSoap = await createClient("node-soap", url);

const calls: Record<WireKind, () => Promise<number>> = {
  fetch: async () => (await (await post()).text()).length,
  chunked: async () => ((await client.getMessages({ ...ACCOUNT })) ?? []).length,
  whole: async () => {
    const bytes = new Uint8Array(await (await post()).arrayBuffer());
    const r = decodeEnvelope(bytes, () => response);
    const value = r.body?.value as { GetMessagesResult?: unknown[] } | undefined;
    return value?.GetMessagesResult?.length ?? 0;
  },
  "node-soap": async () => nodeSoap.summary(await nodeSoap.call()).count,
};

const times = Object.fromEntries(WIRE_KINDS.map((k) => [k, [] as number[]])) as Record<
  WireKind,
  number[]
>;
const cpu = Object.fromEntries(WIRE_KINDS.map((k) => [k, [] as number[]])) as Record<
  WireKind,
  number[]
>;
const counts = Object.fromEntries(WIRE_KINDS.map((k) => [k, 0])) as Record<WireKind, number>;
for (let w = 0; w < Number(warmText); w++) for (const k of WIRE_KINDS) await calls[k]();
const rounds = Number(roundsText);
for (let r = 0; r < rounds; r++) {
  for (let j = 0; j < WIRE_KINDS.length; j++) {
    const k = WIRE_KINDS[(j + r) % WIRE_KINDS.length]!;
    gc();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    counts[k] = await calls[k]();
    times[k].push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu[k].push((c.user + c.system) / 1000);
  }
}
const report: WireReport = { times, cpu, counts };
if (process.send) await reply(report);
else console.log(JSON.stringify(report));
process.exit(0);

/**
 * One client decoding the same GetMessages response from a loopback URL: `ours`, `node-soap` or
 * `fetch` (bytes only). Prints { times: ms[], maxRssMiB, count, firstId, lastId } as JSON.
 */
import * as soap from "soap";
import { ApiClient } from "../generated-samples/message-service/index.js";
import { WSDL_PATH } from "./data.js";

const [kind, url, runsText] = process.argv.slice(2) as [string, string, string];
const runs = Number(runsText);
const gc = (globalThis as { gc?: () => void }).gc;

type Call = () => Promise<{ count: number; firstId: number; lastId: number }>;
let call: Call;
if (kind === "ours") {
  const client = new ApiClient({ endpoint: url });
  call = async () => {
    const list = (await client.getMessages({ email: "alice@example.com", password: "alice-pass" })) ?? [];
    return { count: list.length, firstId: list[0]!.Id, lastId: list[list.length - 1]!.Id };
  };
} else if (kind === "node-soap") {
  const client = (await soap.createClientAsync(WSDL_PATH, {}, url)) as unknown as {
    GetMessagesAsync(args: object): Promise<[{ GetMessagesResult: { Messages: { Id: number | string }[] } }]>;
  };
  call = async () => {
    const [r] = await client.GetMessagesAsync({ email: "alice@example.com", password: "alice-pass" });
    const list = r.GetMessagesResult.Messages;
    return { count: list.length, firstId: Number(list[0]!.Id), lastId: Number(list[list.length - 1]!.Id) };
  };
} else {
  call = async () => {
    const text = await (await fetch(url, { method: "POST", body: "" })).text();
    return { count: text.length, firstId: 0, lastId: 0 };
  };
}

let result = await call(); // warm-up
const times: number[] = [];
for (let i = 0; i < runs; i++) {
  gc?.();
  const t = performance.now();
  result = await call();
  times.push(performance.now() - t);
}
console.log(JSON.stringify({ times, maxRssMiB: process.resourceUsage().maxRSS / 1024, ...result }));

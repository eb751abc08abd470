/**
 * Child process of the cursor benchmark (cursor.ts): our generated server answering GetMessages
 * with `count` messages, either from a cursor (an async generator reading rows in batches of 500,
 * each batch after a turn of the event loop, as a database driver's FETCH) or whole (the array
 * built first, as a store's `listMessages` did). Arguments: `stream` or `whole`, the count. IPC:
 * sends { port }; "rss" replies { rss, maxRss } in bytes and cpuMs (its CPU time so far). Exits
 * when the parent disconnects.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createApiHandler,
  type ApiService,
  type MessagesInput,
} from "../generated-samples/message-service/index.js";
import { messages } from "./data.js";
import { exitWithParent, gc, reply } from "./util.js";

const mode = process.argv[2] as "stream" | "whole";
const count = Number(process.argv[3]);
const BATCH = 500;
const base = messages(1000);

/** Message `i`: one of a thousand varied messages, under its own id. */
const row = (i: number): MessagesInput => ({ ...base[i % base.length]!, Id: 100_000 + i });

/** The rows as a cursor gives them: a batch, then a wait for the next one. */
async function* cursor(): AsyncGenerator<MessagesInput> {
  for (let i = 0; i < count; i += BATCH) {
    await new Promise((resolve) => setImmediate(resolve));
    for (let j = i; j < Math.min(count, i + BATCH); j++) yield row(j);
  }
}

const unused = () => [];
const service: ApiService = {
  getMessages: () =>
    mode === "stream" ? cursor() : Array.from({ length: count }, (_, i) => row(i)),
  getMessagesInDateRange: unused,
  deleteMessage: () => undefined,
};

const server = createServer(createApiHandler(service));
exitWithParent(() => server.close());
const maxRss = () => process.resourceUsage().maxRSS * 1024;
process.on("message", (m: unknown) => {
  if (m !== "rss") return;
  gc();
  const cpu = process.cpuUsage();
  void reply({
    rss: process.memoryUsage().rss,
    maxRss: maxRss(),
    cpuMs: (cpu.user + cpu.system) / 1000,
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
await reply({ port: (server.address() as AddressInfo).port });

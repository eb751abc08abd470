/**
 * Two builds of the runtime compared on the generated handler answering GetMessages in-process
 * (fake requests and responses, as server-count.ts), each build in processes of its own run
 * alternately: two builds loaded into one process were not comparable (the one imported second ran
 * 1.3–1.4× slower whichever it was, with the descriptors shared between them).
 *   npx tsx bench/server-builds.ts <dist A> <dist B> [soap11|soap12|get|post] [pairs] [m]
 * Give it two copies, neither of them runtime/dist itself (e.g. `cp -r runtime/dist /tmp/before`
 * before a change, `/tmp/after` after it): the generated descriptors load runtime/dist, and a
 * process running runtime/dist's own handler ran 0.8× one running a copy of the same build. Prints
 * each pair's median CPU per request (of 20 batches of 100 requests after 1000) and B / A, then the
 * median of the pairs' ratios. m: messages in each answer (100; 1 leaves mostly the cost of the
 * request). The descriptors come from runtime/dist whichever build runs the handler, so a change to
 * the descriptors' builders is not compared.
 */
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { ApiDesc } from "../generated-samples/message-service/descriptors.js";
import { WSDL } from "../generated-samples/message-service/wsdl.js";
import { ACCOUNT, messages, type Binding } from "./data.js";
import { fakeExchange, type Listener } from "./fake-http.js";
import { SERVER_MESSAGES, SERVER_SEED } from "./protocol.js";
import { median } from "./util.js";

type Factory = (init: { service: unknown; impl: object; embeddedWsdl: string }) => Listener;

/** One build, in this process: the median CPU per request of 20 batches, in µs. */
async function child(dist: string, binding: Binding, answered: number): Promise<number> {
  const runtime = (await import(resolve(dist, "index.js"))) as { createServiceHandler: Factory };
  const list = messages(SERVER_MESSAGES, SERVER_SEED).slice(0, answered);
  const impl = {
    getMessages: ({ email, password }: { email?: string; password?: string }) =>
      email === ACCOUNT.email && password === ACCOUNT.password ? list : [],
    getMessagesInDateRange: () => [],
    deleteMessage: () => undefined,
  };
  const listener = runtime.createServiceHandler({ service: ApiDesc, impl, embeddedWsdl: WSDL });
  const exchange = fakeExchange(binding);
  const one = () => exchange(listener);
  for (let i = 0; i < 1000; i++) await one();
  const per: number[] = [];
  for (let r = 0; r < 20; r++) {
    const c = process.cpuUsage();
    for (let i = 0; i < 100; i++) await one();
    const d = process.cpuUsage(c);
    per.push((d.user + d.system) / 100);
  }
  return median(per);
}

const args = process.argv.slice(2);
if (args[0] === "child") {
  console.log(await child(args[1]!, args[2] as Binding, Number(args[3])));
} else {
  const [a, b, binding = "soap11", pairs = "6", answered = "100"] = args;
  if (!a || !b) throw new Error("usage: server-builds.ts <dist A> <dist B> [binding] [pairs] [m]");
  const self = new URL(import.meta.url).pathname;
  const run = (dist: string) =>
    Number(
      execFileSync(
        process.execPath,
        [...process.execArgv, self, "child", dist, binding, answered],
        {
          encoding: "utf8",
        },
      ),
    );
  const ratios: number[] = [];
  for (let i = 0; i < Number(pairs); i++) {
    // The order flipped every pair, so that a machine growing busier falls on both alike.
    const [x, y] = i % 2 ? [run(b), run(a)].reverse() : [run(a), run(b)];
    ratios.push(y! / x!);
    console.log(`A ${x!.toFixed(1)} µs, B ${y!.toFixed(1)} µs: B / A ${(y! / x!).toFixed(3)}`);
  }
  console.log(`${binding}: B / A median of ${ratios.length} pairs ${median(ratios).toFixed(3)}`);
}

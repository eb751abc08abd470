/**
 * `npm run bench`: speed and memory of the generated Message Retrieval Service code, each figure a
 * ratio against a peer measured in the same run (absolute times on a shared machine mean little).
 * 1. Client decode: GetMessages → 10,000 messages (SOAP 1.1), ours vs node-soap vs the bytes alone.
 *   2. Server: GetMessages → 100 messages over SOAP 1.1, SOAP 1.2, HTTP GET and HTTP POST, ours vs
 *      a hand-written template server, a bare node:http server sending our bytes and (SOAP 1.1)
 *      node-soap, compared by the server process's CPU time per request.
 *   3. Generation: the CLI's time and peak memory on the three largest corpus WSDLs both tools
 * process, ours vs wsdl-tsclient (a devDependency); needs ../shared/corpus. It runs outside the
 *      overall time bound of parts 1 and 2, each run bounded by itself.
 *   4. Service: the Message Retrieval Service's authenticated GetMessages on SQLite and PostgreSQL
 *      against the generated server without a store; ?WSDL under a wrong-password flood; the
 *      cost of synchronous=FULL (bench/service.ts). Only with `service`: it is not part of the
 *      default run.
 *   5. WS-Security: a GetMessages call signed both ways against the same call unsigned, in CPU time
 *      per call, and signing and verifying one request alone (bench/wss.ts); a keyless forger's
 *      worst 1 MiB messages against an honest one (bench/wss-hostile.ts).
 *   6. MTOM: a 64 MiB document uploaded and downloaded as MTOM attachments against inline base64,
 *      each side's peak RSS growth against the attachment's size, and node-soap reading the same
 *      MTOM answer (bench/mtom.ts); then 1 GiB both ways (MTOM_STREAM_MIB to change it), streamed
 *      from a generator and spooled to files, each side's peak RSS growth (bench/mtom-stream.ts),
 *      and its peer at MTOM_PEER_MIB (64) against the in-memory path, as ratios.
 *   6b. Cursor: an implementation yielding 1,000,000 messages from a cursor: the server's RSS
 *      growth and the time to the first byte; then the cursor against the whole array at one count
 *      (a tenth, at most 100,000), as ratios (bench/cursor.ts; BENCH_CURSOR_MESSAGES sets the
 *      count).
 *   7. Scaffolding: `generate` with and without the scaffold's dependencies loaded, what it loads,
 *      and what `scaffold`, `--mock` and `--update` take against it (bench/scaffold.ts).
 *   7. Type-check cost: tsc's check time and memory on the whole generated SDK, its types.ts alone
 *      and wsdl-tsclient's output (bench/typecheck.ts). Only with `typecheck`, which then runs
 *      part 3 on the same inputs, so that generation speed shows beside it.
 *   8. Authentication: a GetMessages call with Basic, NTLM and Kerberos through Apache, on a
 *      kept-alive connection and as a first call with its handshake (bench/auth.ts). Only with
 *      `auth`: it starts Apache and a Kerberos realm.
 *   9. Client, GetMessages streamed: `client.stream.getMessages` on 100,000 messages generated as
 *      they are sent (1,000,000, ~450 MB, with `stream --million`), its peak RSS growth, its time
 *      per message against the whole call on 10,000, node-soap beside it (bench/stream.ts).
 * Loopback only (127.0.0.1, port 0); every child process stops with its parent. Needs
 * `npm run build`: the generated code imports @wsdl-tsgen/runtime from dist/, as an app's does
 * (bench/tsconfig.dist.json).
 *
 * Options: `decode`, `server`, `wss`, `mtom`, `cursor`, `stream`, `generate`, `scaffold`,
 * `service`, `typecheck` or `auth` to run one part; `--quick` for a short smoke run; `--million`
 * for the streamed bench's 1,000,000 messages.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { cpus } from "node:os";
import { authBench } from "./auth.js";
import { decodeBench } from "./decode.js";
import { generateBench } from "./generate.js";
import { scaffoldBench } from "./scaffold.js";
import { serverBench } from "./server.js";
import { serviceBench } from "./service.js";
import { typecheckBench } from "./typecheck.js";
import { wssBench } from "./wss.js";
import { mtomBench } from "./mtom.js";
import { cursorBench } from "./cursor.js";
import { streamBench } from "./stream.js";
import { mtomStreamBench } from "./mtom-stream.js";
import { within } from "./util.js";

const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
const only = argv.find((a) =>
  [
    "decode",
    "server",
    "wss",
    "mtom",
    "cursor",
    "stream",
    "generate",
    "scaffold",
    "service",
    "typecheck",
    "auth",
  ].includes(a),
);

const problem = runtimeProblem();
if (problem) {
  console.error(problem);
  process.exit(1);
}

/**
 * Why the runtime measured would not be the one apps run, if it would not: the built package, as
 * tsc wrote it. tsx maps @wsdl-tsgen/runtime to its sources by the root tsconfig's paths, and its
 * transform names every function it makes (a call per closure made per request).
 */
function runtimeProblem(): string | undefined {
  const built = "runtime/dist/index.js";
  if (!existsSync(built))
    return "runtime/dist/ is missing: run `npm run build` first (the benchmarks measure it).";
  if (!import.meta.resolve("@wsdl-tsgen/runtime").endsWith(`/${built}`))
    return (
      "@wsdl-tsgen/runtime resolves to its sources: run the benchmarks with `npm run bench`, " +
      "which sets TSX_TSCONFIG_PATH=bench/tsconfig.dist.json."
    );
  const at = statSync(built).mtimeMs;
  // Recursive: the runtime's sources are in folders by role (xml/, server/, …).
  const newer = readdirSync("runtime/src", { recursive: true, encoding: "utf8" }).find(
    (f) => statSync(`runtime/src/${f}`).mtimeMs > at,
  );
  if (newer)
    return `runtime/src/${newer} is newer than runtime/dist/: run \`npm run build\` first.`;
  return undefined;
}

const started = performance.now();
console.log(
  `wsdl-tsgen benchmarks — Node ${process.version}, ${cpus().length} CPU(s) (${cpus()[0]?.model.trim() ?? "unknown"})${quick ? ", --quick" : ""}`,
);
try {
  // Hard bound: the whole run stops by itself even if a child hangs.
  if (only === "service")
    await within(170_000, "the benchmark", serviceBench({ seconds: quick ? 2 : 8 }));
  else if (only === "auth")
    await within(
      170_000,
      "the benchmark",
      authBench({ rounds: quick ? 2 : 6, calls: quick ? 50 : 200 }),
    );
  else if (only === "scaffold") await scaffoldBench({ rounds: quick ? 2 : 5 });
  else if (only === "typecheck") {
    typecheckBench({ rounds: quick ? 2 : 5 });
    await generateBench({ rounds: quick ? 2 : 5, synthetic: [2, 8] });
  } else if (only !== "generate") {
    await within(
      360_000,
      "the benchmark",
      (async () => {
        if (!only || only === "decode") await decodeBench({ rounds: quick ? 2 : 5 });
        if (!only || only === "server") await serverBench({ seconds: quick ? 2 : 8 });
        if (!only || only === "wss")
          await wssBench({ rounds: quick ? 3 : 7, calls: quick ? 100 : 300 });
        if (!only || only === "mtom") {
          await mtomBench({ mebibytes: quick ? 8 : 64 });
          const streamed = Number(process.env["MTOM_STREAM_MIB"] ?? (quick ? 64 : 1024));
          const peerMebibytes = Number(process.env["MTOM_PEER_MIB"] ?? (quick ? 16 : 64));
          await mtomStreamBench({ mebibytes: streamed, peerMebibytes });
        }
        if (!only || only === "cursor")
          await cursorBench({
            count: Number(process.env.BENCH_CURSOR_MESSAGES ?? (quick ? 100_000 : 1_000_000)),
          });
      })(),
    );
  }
  // Bounded by its own per-run limits: a million messages take minutes.
  if (!only || only === "stream") {
    const million = argv.includes("--million");
    await streamBench({
      count: million ? 1_000_000 : quick ? 20_000 : 100_000,
      nodeSoapSizes: million ? [10_000, 100_000, 1_000_000] : quick ? [10_000] : [10_000, 100_000],
      rounds: quick ? 3 : 21,
    });
  }
  // Bounded by its own per-run limits: its length depends on the corpus and the peer.
  if (!only || only === "generate") await generateBench({ rounds: quick ? 2 : 5 });
  if (!only) await scaffoldBench({ rounds: quick ? 2 : 5 });
  console.log(`\nDone in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
} catch (e) {
  console.error(`\n${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
}
// Children exit when this process disconnects; exit explicitly so no stray handle keeps it alive.
process.exit();

/**
 * The corpus goldens' round trip over every root of ../shared/corpus that generates:
 * `npx tsx scripts/corpus-roundtrip.ts [--mutate] [--validate] [filter]` (minutes for the whole corpus;
 * a filter matches root ids, e.g. `node-soap`). `--mutate` also sends each operation's request mutated
 * (truncated, mistyped, renamed, nested too deep, …): the server must answer each as a request error,
 * never fail inside or show a stack trace. `--validate` validates every message written against the
 * WSDL's schemas with the JDK's validator (test/support/xsd-validate.ts).
 *
 * Each root is generated with GOLDEN_OPTIONS into .cache/roundtrip/ (ignored by git), its runtime
 * imported from src/ so that the generated code and the sample values share one copy of it. Then
 * test/support/round-trip.ts sends sample values for every operation through its client to its
 * server over every port and compares them on arrival and on return, and throws each declared fault.
 * An operation whose requests are an earlier one's on the wire (WSDL_AMBIGUOUS_OPERATIONS) is left
 * out, and listed.
 * Prints what fails per root and a summary; exits 1 when any root fails. Roots that do not generate
 * are counted apart (scripts/corpus.ts says why). test/corpus/round-trip.test.ts runs the same in CI.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { generateFiles } from "../src/generate.js";
import { isRecovery } from "../src/recovery.js";
import { loadGenerated } from "../test/support/golden-services.js";
import { roundTrip, type RoundTrip, type WireMessage } from "../test/support/round-trip.js";
import { validateMessages, valueOnly } from "../test/support/xsd-validate.js";
import { listRoots, type CorpusRoot } from "./corpus.js";
import { GOLDEN_OPTIONS, REPO_ROOT, SKIP_LINE, corpusPresent } from "./corpus-goldens.js";

const WORK = path.join(REPO_ROOT, ".cache/roundtrip");
/** A root's round trip may not take longer (some have hundreds of operations). */
const ROOT_LIMIT_MS = 300_000;

/**
 * What the JDK's validator said of the messages a root's round trip wrote (`validate`): "valid" (or
 * invalid only by what the sample values cause), "refused" (Xerces does not accept the WSDL's schemas
 * or its XML: the corpus holds deliberately broken WSDLs, which we read with recoveries), or
 * "defective" (messages invalid, and the root generated with recovery warnings: an element declared
 * nowhere is written as the WSDL names it, which no schema then declares). Messages of a root without
 * recoveries that are invalid are round-trip failures instead.
 */
export type Validation =
  | { readonly verdict: "valid" | "defective"; readonly messages: number }
  | { readonly verdict: "refused"; readonly why: string };

/** One root's round trip: not generated (an error diagnostic), or what it found (an Error if it threw or ran out of time). */
export type RootRoundTrip =
  | { readonly generated: false }
  | {
      readonly generated: true;
      readonly out: RoundTrip | Error;
      readonly seconds: number;
      readonly validation?: Validation;
    };

/**
 * Generates `root` into `dir` and round-trips every operation of every port (`mutate`: and sends
 * its requests mutated). The generated code imports its runtime from src/ (by a relative path,
 * unless `runtimeImport` says otherwise: under vitest, `@wsdl-tsgen/runtime` is src/ already), so
 * that it and the sample values share one copy.
 */
export async function roundTripRoot(
  root: CorpusRoot,
  dir: string,
  options: {
    readonly runtimeImport?: string;
    readonly mutate?: boolean;
    readonly validate?: boolean;
  } = {},
): Promise<RootRoundTrip> {
  mkdirSync(dir, { recursive: true });
  const runtimeImport =
    options.runtimeImport ??
    path.relative(dir, path.join(REPO_ROOT, "runtime/src/index.js")).split(path.sep).join("/");
  const generated = await generateFiles(root.file, { ...GOLDEN_OPTIONS, runtimeImport });
  if (generated.diagnostics.some((d) => d.severity === "error")) return { generated: false };
  for (const f of generated.files) writeFileSync(path.join(dir, f.path), f.content);
  const started = performance.now();
  let out: RoundTrip | Error;
  let validation: Validation | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const limit = new Promise<Error>(
      (resolve) =>
        (timer = setTimeout(
          () => resolve(new Error(`no result within ${ROOT_LIMIT_MS / 1000} s`)),
          ROOT_LIMIT_MS,
        )),
    );
    const messages: WireMessage[] = [];
    const capture = options.validate ? { capture: (m: WireMessage) => void messages.push(m) } : {};
    out = await Promise.race([
      loadGenerated(root.file, dir, root.id).then((g) =>
        roundTrip(g, { mutate: options.mutate ?? false, ...capture }),
      ),
      limit,
    ]);
    if (options.validate && !(out instanceof Error) && messages.length > 0) {
      validation = await validate(root, messages, out, generated.diagnostics.some(isRecovery));
    }
  } catch (e) {
    out = e instanceof Error ? e : new Error(String(e));
  } finally {
    clearTimeout(timer);
  }
  return {
    generated: true,
    out,
    seconds: (performance.now() - started) / 1000,
    ...(validation ? { validation } : {}),
  };
}

/** The schemas' verdict on what was written (test/support/xsd-validate.ts); errors only the sample values cause aside. */
async function validate(
  root: CorpusRoot,
  messages: readonly WireMessage[],
  out: RoundTrip,
  recovered: boolean,
): Promise<Validation> {
  let verdicts;
  try {
    verdicts = await validateMessages(root.file, messages);
  } catch (e) {
    return { verdict: "refused", why: (e as Error).message.split("\n")[0]!.slice(0, 300) };
  }
  const invalid = verdicts.flatMap((v) =>
    v.errors
      .filter((_, i) => !valueOnly(v.errors, i))
      .map((e) => `${v.where}: not valid by the schemas: ${e}`),
  );
  if (invalid.length > 0 && recovered) return { verdict: "defective", messages: messages.length };
  out.failures.push(...invalid);
  return { verdict: "valid", messages: messages.length };
}

/** What a root's round trip found wrong: its failures and the branches it never sent (or the error). */
export function problemsOf(out: RoundTrip | Error): string[] {
  return out instanceof Error
    ? [out.message]
    : [...out.failures, ...out.missed.map((k) => `never sent: ${k}`)];
}

async function main(args: readonly string[]): Promise<number> {
  const mutate = args.includes("--mutate");
  const validate = args.includes("--validate");
  const filter = args.find((a) => !a.startsWith("--"));
  if (!corpusPresent()) {
    console.log(SKIP_LINE);
    return 0;
  }
  const roots = listRoots().filter((r) => filter === undefined || r.id.includes(filter));
  rmSync(WORK, { recursive: true, force: true });
  let passed = 0;
  let notGenerated = 0;
  const verdicts = { valid: 0, refused: 0, defective: 0 };
  const failed: string[] = [];
  for (const [i, root] of roots.entries()) {
    const dir = path.join(WORK, String(i));
    const r = await roundTripRoot(root, dir, { mutate, validate });
    if (!r.generated) {
      notGenerated++;
      continue;
    }
    if (r.validation) verdicts[r.validation.verdict]++;
    const problems = problemsOf(r.out);
    const seconds = r.seconds.toFixed(1);
    if (problems.length === 0 && !(r.out instanceof Error)) {
      passed++;
      console.log(`ok    ${root.id} (${r.out.calls} calls, ${seconds} s)`);
      for (const k of r.out.skipped) console.log(`        not sent: ${k}`);
    } else {
      failed.push(root.id);
      console.log(`FAIL  ${root.id} (${seconds} s): ${problems.length} problem(s)`);
      for (const p of problems.slice(0, 5)) console.log(`        ${p}`);
    }
  }
  console.log(
    `\n${passed} of ${roots.length - notGenerated} generated roots round-trip; ${failed.length} fail; ${notGenerated} do not generate`,
  );
  if (validate)
    console.log(
      `schemas: ${verdicts.valid} roots' messages valid; ${verdicts.refused} roots' schemas refused by Xerces; ${verdicts.defective} defective roots with invalid messages`,
    );
  return failed.length > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}

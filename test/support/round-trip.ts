/**
 * The round trip of the corpus goldens (test/roundtrip/corpus-goldens.test.ts), also run over every
 * corpus root by scripts/corpus-roundtrip.ts: sample inputs and results for every operation of a
 * generated service, through its client to its server over every port, compared on arrival and on
 * return; and each declared fault, thrown with a sample detail.
 */
import type { BodyDesc, OperationDesc, SoapOperationDesc } from "../../runtime/src/index.js";
import type { GoldenService, LoadedGolden, WireMode } from "./golden-services.js";
import { listen } from "./loopback.js";
import { keptAnywhere, mutants } from "./undescribed-mutants.js";
import { firstDifference, httpInput, normalise, SampleBuilder } from "./sample-values.js";

/**
 * Variants per operation: 0..3 (see runtime/src/descriptors/sample-values.ts), more when a choice
 * or a derivation family has
 * more branches or members, and more again (up to MAX_VARIANTS) while one met was never built.
 */
export const MIN_VARIANTS = 4;
const MAX_VARIANTS = 64;

function resultValue(body: BodyDesc | undefined, b: SampleBuilder): unknown {
  if (!body || body.void) return undefined;
  // A multi-part body's value is an object with one property per part.
  if (body.prop === undefined) return b.type(body.parts ?? body.element.type, 0, true);
  const t = body.element.type;
  const f = t.k === "complex" ? t.fields.find((x) => x.prop === body.prop) : undefined;
  if (!f)
    throw new Error(
      `no field ${body.prop} in ${body.element.name} (${t.k} ${"name" in t ? t.name : t.s})`,
    );
  return b.field(f, 1);
}

function inputValue(op: OperationDesc, b: SampleBuilder, v: number): unknown {
  if (op.kind === "http") return httpInput(op.params, v);
  if (!op.request) return undefined;
  const value = b.type(op.request.parts ?? op.request.element.type, 0, true);
  return op.request.prop === undefined ? value : { [op.request.prop]: value };
}

/**
 * An HTTP operation's result is the logical operation's: take its shape from the SOAP operation of
 * the same name when there is one (so an optional result is also sent absent over HTTP).
 */
function soapTwin(s: GoldenService, name: string): SoapOperationDesc | undefined {
  for (const p of Object.values(s.desc.ports)) {
    const op = p.operations[name];
    if (op?.kind === "soap" && op.response?.prop !== undefined) return op;
  }
  return undefined;
}

export interface Outcome {
  calls: number;
  failures: string[];
  branches: Set<string>;
  choices: Map<string, number>;
  /**
   * Operations left out: their requests are an earlier operation's on the wire
   * (WSDL_AMBIGUOUS_OPERATIONS).
   */
  skipped: string[];
}

/**
 * How a server tells an operation's requests apart: SOAPAction and body element, or HTTP location.
 */
function wireSignature(op: OperationDesc): string {
  if (op.kind === "http") return `location ${op.location}`;
  const el = op.request?.element;
  return `action ${op.action ?? ""} body ${el ? `{${el.ns}}${el.name}` : ""}`;
}

/**
 * Statuses a server may answer a malformed or unexpected request with (never a crash, never a stack
 * trace).
 */
const ANSWERS = new Set([200, 202, 400, 404, 405, 413, 415, 500]);
/** A stack frame, as a response must never show one. */
const STACK_FRAME = /\n\s+at [^\n]*:\d+:\d+/;

/**
 * Variants of a request that a client should not have sent: malformed, mistyped, renamed, too deep.
 */
function mutations(body: string): [string, string][] {
  const out: [string, string][] = [["truncated", body.slice(0, Math.floor(body.length / 2))]];
  if (/>[^<]+</.test(body)) {
    out.push(["a control character in text", body.replace(/>[^<]+</, ">\u0001<")]);
    out.push(["a text of another type", body.replace(/>[^<]+</, ">not a value<")]);
  }
  out.push(["namespaces dropped", body.replace(/ xmlns(:\w+)?="[^"]*"/g, "")]);
  const body0 = /<(\w+:)?Body>/.exec(body);
  if (body0) {
    const at = body0.index + body0[0].length;
    out.push([
      "600 unknown elements deep",
      `${body.slice(0, at)}${"<x>".repeat(600)}${"</x>".repeat(600)}${body.slice(at)}`,
    ]);
    out.push([
      "an unknown element first",
      `${body.slice(0, at)}<Unexpected xmlns="urn:unexpected">1</Unexpected>${body.slice(at)}`,
    ]);
  }
  return out;
}

/** Variants of an HTTP GET query or POST form. */
function formMutations(form: string): [string, string][] {
  const pairs = form === "" ? [] : form.split("&");
  return [
    ["no parameters", ""],
    ["malformed percent-encoding", pairs.map((p) => `${p.split("=")[0]}=%ZZ`).join("&")],
    ["values of another type", pairs.map((p) => `${p.split("=")[0]}=not%20a%20value`).join("&")],
    ["every parameter twice", [...pairs, ...pairs].join("&")],
  ];
}

/** A message the round trip sent or answered, with what of it a schema declares (`capture`). */
export interface WireMessage {
  readonly where: string;
  readonly mode: WireMode;
  readonly xml: string;
}

export interface RoundTripOptions {
  /** Also send each operation's request mutated (see `mutations`). */
  readonly mutate?: boolean;
  /**
   * Receives every request and response body the client sent and read that holds XML a schema
   * declares.
   */
  readonly capture?: (message: WireMessage) => void;
  /**
   * The service was generated with its WSDL embedded (the goldens are not), so ?WSDL answers it.
   */
  readonly wsdlEmbedded?: boolean;
  /** Also check that nothing vanishes: see undescribed-mutants.ts. */
  readonly properties?: boolean;
}

export async function exercise(
  golden: LoadedGolden,
  s: GoldenService,
  out: Outcome,
  options: RoundTripOptions = {},
): Promise<void> {
  let expected: { op: string; result: unknown; fault?: Error } | undefined;
  let arrived: unknown;
  let invoked = 0;
  /** Replaces the text of the next responses the client reads, while set. */
  let responseHook: ((xml: string) => string) | undefined;
  let lastResponse: string | undefined;
  const logged: string[] = [];
  const impl: Record<string, (input: unknown) => unknown> = {};
  for (const [op, method] of s.methods) {
    impl[method] = (input: unknown) => {
      arrived = input;
      invoked++;
      if (expected?.op !== op) throw new Error(`called ${op}, expected ${expected?.op}`);
      if (expected.fault) throw expected.fault;
      return expected.result;
    };
  }
  const handler = s.createHandler(impl, {
    maxBodyBytes: 64 * 1024 * 1024,
    limits: { maxDepth: 512, maxElements: 10_000_000 },
    logger: (m: string, e: unknown) =>
      logged.push(`${m}: ${e instanceof Error ? e.message : String(e)}`),
  });
  /**
   * Sends each mutation of a request; the server must answer it as a request error, never fail
   * inside.
   */
  const mutate = async (
    request: { url: string; init: RequestInit },
    where: string,
  ): Promise<void> => {
    const url = new URL(request.url);
    const body = typeof request.init.body === "string" ? request.init.body : undefined;
    const variants: [string, RequestInit & { url: string }][] =
      request.init.method === "GET"
        ? formMutations(url.search.slice(1)).map(([what, q]) => [
            what,
            { ...request.init, url: `${url.origin}${url.pathname}${q ? `?${q}` : ""}` },
          ])
        : body === undefined
          ? []
          : (/^\s*</.test(body) ? mutations(body) : formMutations(body)).map(([what, b]) => [
              what,
              { ...request.init, body: b, url: request.url },
            ]);
    for (const [what, init] of variants) {
      expected = undefined;
      logged.length = 0;
      out.calls++;
      const res = await fetch(init.url, init);
      const text = await res.text();
      const problem = !ANSWERS.has(res.status)
        ? `answered ${res.status}`
        : STACK_FRAME.test(text)
          ? "answered with a stack trace"
          : logged.some((l) => l.includes("unexpected error"))
            ? `failed inside: ${logged.join("; ").slice(0, 300)}`
            : undefined;
      if (problem) out.failures.push(`${where}, ${what}: ${problem}`);
    }
  };
  /**
   * The "nothing vanishes" property on this call: its request, changed, sent to the server, and its
   * response, changed, read by the client. Success with the input or result unchanged is a failure.
   */
  const probe = async (
    request: { url: string; body: unknown; init: RequestInit },
    input: unknown,
    result: unknown,
    where: string,
    op: string,
    callClient: () => Promise<unknown>,
    modes: { request: WireMode; response: WireMode },
  ): Promise<void> => {
    const response = lastResponse;
    if (modes.request !== "none" && typeof request.body === "string") {
      for (const m of mutants(request.body, `${where} request`)) {
        expected = { op, result };
        const before = invoked;
        out.calls++;
        const res = await fetch(request.url, { ...request.init, body: m.xml });
        await res.text();
        if (invoked > before && !firstDifference(normalise(arrived), normalise(input ?? {})))
          out.failures.push(
            `${where} request, ${m.kind} at ${m.at}: answered ${res.status}, input unchanged`,
          );
      }
    }
    if (modes.response === "none" || response === undefined) return;
    for (const m of mutants(response, `${where} response`)) {
      expected = { op, result };
      out.calls++;
      responseHook = () => m.xml;
      const returned = await callClient().then(
        (value) => ({ value }),
        () => undefined,
      );
      responseHook = undefined;
      if (
        returned &&
        !firstDifference(normalise(returned.value), normalise(result)) &&
        !keptAnywhere(returned.value)
      )
        out.failures.push(`${where} response, ${m.kind} at ${m.at}: resolved, the element gone`);
    }
  };
  const lb = await listen(handler);
  try {
    const ports = Object.values(s.desc.ports);
    const basePath = new URL(ports[0]!.address, "http://localhost").pathname.replace(/\/+$/, "");
    // Generated without the WSDL (embedWsdl: false) and given none: ?WSDL is a 404 that says why.
    const wsdl = await fetch(`${lb.url}${basePath}?wsdl`);
    const wsdlText = await wsdl.text();
    if (
      options.wsdlEmbedded
        ? wsdl.status !== 200 || !wsdlText.includes("definitions")
        : wsdl.status !== 404 || !wsdlText.includes("embedWsdl")
    ) {
      out.failures.push(
        `${s.name}: ?wsdl answered ${wsdl.status}, expected ${options.wsdlEmbedded ? 200 : 404}`,
      );
    }
    for (const port of ports) {
      // Each port is served at the path of its own address.
      // The last request the client sent, for the mutations; what the call under way sends and
      // reads, for `capture`.
      let sent: { url: string; init: RequestInit } | undefined;
      let call: { where: string; request: WireMode; response: WireMode } | undefined;
      const recording = (async (url: string | URL, init: RequestInit = {}) => {
        sent = { url: String(url), init };
        let res = await fetch(url, init);
        if (options.properties && (res.headers.get("content-type") ?? "").includes("xml")) {
          lastResponse = await res.clone().text();
          if (responseHook) {
            const headers = new Headers(res.headers);
            headers.delete("content-length");
            const { status, statusText } = res;
            res = new Response(responseHook(lastResponse), { status, statusText, headers });
          }
        }
        const c = call;
        if (options.capture && c) {
          if (c.request !== "none" && typeof init.body === "string")
            options.capture({ where: `${c.where} request`, mode: c.request, xml: init.body });
          if (c.response !== "none" && (res.headers.get("content-type") ?? "").includes("xml")) {
            const text = await res.clone().text();
            if (text.trim() !== "")
              options.capture({
                where: `${c.where} response ${res.status}`,
                mode: c.response,
                xml: text,
              });
          }
        }
        return res;
      }) as typeof fetch;
      const modes = s.wire.get(port.name);
      const client = new s.Client({
        endpoint: `${lb.url}${new URL(port.address, "http://localhost").pathname.replace(/\/+$/, "")}`,
        port: port.name,
        fetch: recording,
      } as { endpoint: string; port: string });
      const signatures = new Map<string, string>();
      for (const [opName, op] of Object.entries(port.operations)) {
        const signature = wireSignature(op);
        const earlier = signatures.get(signature);
        if (earlier !== undefined) {
          out.skipped.push(
            `${s.name}/${port.name}/${opName} (its requests are ${earlier}'s on the wire)`,
          );
          continue;
        }
        signatures.set(signature, opName);
        const method = s.methods.get(opName)!;
        let variants = MIN_VARIANTS;
        // Branches and family members met in this operation's values: more variants while some were
        // never built.
        const met = new Map<string, number>();
        const built = new Set<string>();
        for (let v = 0; v < variants; v++) {
          const b = new SampleBuilder(golden.choices, { variant: v });
          const input = inputValue(op, b, v);
          const result =
            op.kind === "soap" && op.oneWay
              ? undefined
              : resultValue(
                  op.kind === "http" ? (soapTwin(s, opName)?.response ?? op.response) : op.response,
                  b,
                );
          variants = Math.max(variants, b.maxBranches + 1);
          for (const k of b.branches) (out.branches.add(k), built.add(k));
          for (const [k, n] of b.choices) (out.choices.set(k, n), met.set(k, n));
          const missing = [...met].some(([k, n]) =>
            Array.from({ length: n }, (_, i) => `${k}#${i}`).some((x) => !built.has(x)),
          );
          if (v === variants - 1 && missing && variants < MAX_VARIANTS) variants++;
          const where = `${s.name}/${port.name}/${opName} v${v}`;
          call = { where, ...(modes?.get(opName) ?? { request: "none", response: "none" }) };
          expected = { op: opName, result };
          arrived = undefined;
          logged.length = 0;
          out.calls++;
          try {
            const returned = await client[method]!(input);
            const onArrival = firstDifference(normalise(arrived), normalise(input ?? {}));
            if (onArrival) out.failures.push(`${where}: input differs on arrival at ${onArrival}`);
            const onReturn = firstDifference(normalise(returned), normalise(result));
            if (onReturn) out.failures.push(`${where}: result differs on return at ${onReturn}`);
          } catch (e) {
            out.failures.push(
              `${where}: ${(e as Error).message.slice(0, 400)}${logged.length ? ` (server: ${logged.join("; ").slice(0, 400)})` : ""}`,
            );
          }
          if (options.mutate && v === 1 && sent) await mutate(sent, where);
          if (options.properties && v === 1 && sent) {
            const request = { url: sent.url, body: sent.init.body, init: sent.init };
            await probe(request, input, result, where, opName, () => client[method]!(input), call);
          }
        }
        // Each declared fault, thrown by the implementation with a sample detail, arrives as its
        // own class with that detail.
        if (op.kind !== "soap" || op.oneWay) continue;
        for (const [i, f] of (op.faults ?? []).entries()) {
          const where = `${s.name}/${port.name}/${opName} fault ${f.name}`;
          call = { where, ...(modes?.get(opName) ?? { request: "none", response: "none" }) };
          const b = new SampleBuilder(golden.choices, { variant: 1 + (i % 3) });
          const detail = b.type(f.element.type, 0, true);
          const input = inputValue(op, new SampleBuilder(golden.choices, { variant: 0 }), 0);
          expected = {
            op: opName,
            result: undefined,
            fault: f.create({ code: "Client", message: `fault ${f.name} & <more>` }, detail),
          };
          logged.length = 0;
          out.calls++;
          const error = await client[method]!(input).then(
            () => undefined,
            (e: unknown) => e,
          );
          if (!(error instanceof f.type)) {
            out.failures.push(
              `${where}: rejected with ${error instanceof Error ? `${error.name}: ${error.message.slice(0, 300)}` : String(error)}${logged.length ? ` (server: ${logged.join("; ").slice(0, 300)})` : ""}`,
            );
            continue;
          }
          const onReturn = firstDifference(normalise(f.detailOf(error)), normalise(detail));
          if (onReturn) out.failures.push(`${where}: detail differs at ${onReturn}`);
          if (error.message !== `fault ${f.name} & <more>` || error.side !== "Client")
            out.failures.push(`${where}: message ${error.message}, side ${error.side}`);
        }
      }
    }
  } finally {
    await lb.close();
  }
}

/** What a round trip of all of a generated module's services found. */
export interface RoundTrip extends Outcome {
  /** Operations over all ports. */
  readonly operations: number;
  /** Branches of choices and members of families met but never sent. */
  readonly missed: readonly string[];
}

/** Round-trips every service of `golden` (see exercise and RoundTripOptions). */
export async function roundTrip(
  golden: LoadedGolden,
  options: RoundTripOptions = {},
): Promise<RoundTrip> {
  const out: Outcome = {
    calls: 0,
    failures: [],
    branches: new Set(),
    choices: new Map(),
    skipped: [],
  };
  for (const s of golden.services) await exercise(golden, s, out, options);
  const operations = golden.services.reduce(
    (n, s) =>
      n + Object.values(s.desc.ports).reduce((m, p) => m + Object.keys(p.operations).length, 0),
    0,
  );
  const missed = [...out.choices]
    .flatMap(([k, n]) => Array.from({ length: n }, (_, i) => `${k}#${i}`))
    .filter((k) => !out.branches.has(k));
  return { ...out, operations, missed };
}

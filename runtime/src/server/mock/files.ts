/**
 * Reads a mocks folder: `config.json`, and `<Operation>/*.json|*.xml` for each operation of the
 * services mocked. Every problem is gathered, each naming its file, so that a start refuses a bad
 * folder whole, before it serves anything, rather than fail one request later.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import type { OperationDesc, ServiceDesc } from "../../descriptors/operations.js";
import { typedResult, operationFor, xmlAnswer } from "./typed.js";
import type { DispatchStyle, MockConfig, MockFault, MockProblem, MockResponse } from "./types.js";

/** What a folder holds: the config, and each operation's files by WSDL name, sorted by name. */
export interface MockFolder {
  readonly config: MockConfig;
  readonly responses: ReadonlyMap<string, readonly MockResponse[]>;
}

/** Reads `dir` for `services`; `problems` receives what is wrong. */
export function readMockFolder(
  dir: string,
  services: readonly ServiceDesc[],
  problems: MockProblem[],
): MockFolder {
  const config = readConfig(dir, problems);
  const responses = new Map<string, MockResponse[]>();
  if (!existsSync(dir)) return { config, responses };
  const operations = new Map<string, OperationDesc>();
  for (const s of services)
    for (const method of Object.keys(s.methods)) {
      const op = operationFor(s, method);
      if (op) operations.set(s.methods[method]!, op);
    }
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort(byName)) {
    if (!entry.isDirectory()) continue;
    const op = operations.get(entry.name);
    if (!op) {
      const known = [...operations.keys()].join(", ");
      problems.push({ file: entry.name, message: `names no operation; expected one of ${known}` });
      continue;
    }
    responses.set(entry.name, readOperation(dir, entry.name, op, problems));
  }
  for (const name of Object.keys(config.operations ?? {}))
    if (!operations.has(name))
      problems.push({ file: "config.json", message: `operations.${name} names no operation` });
  return { config, responses };
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : 1);

function readOperation(
  dir: string,
  name: string,
  op: OperationDesc,
  problems: MockProblem[],
): MockResponse[] {
  const out: MockResponse[] = [];
  for (const f of readdirSync(path.join(dir, name)).sort()) {
    const file = `${name}/${f}`;
    if (!/\.(json|xml)$/.test(f) || !statSync(path.join(dir, file)).isFile()) continue;
    try {
      const text = readFileSync(path.join(dir, file), "utf8");
      out.push(
        f.endsWith(".xml")
          ? { file, match: {}, answer: xmlAnswer(op, text) }
          : json(op, file, text),
      );
    } catch (e) {
      problems.push({ file, message: e instanceof Error ? e.message : String(e) });
    }
  }
  return out;
}

const FILE_KEYS = new Set(["match", "response", "fault"]);

/** A JSON response file: `{ "match"?: {...}, "response": value }` or `{ ..., "fault": {...} }`. */
function json(op: OperationDesc, file: string, text: string): MockResponse {
  const body: unknown = JSON.parse(text);
  if (!isObject(body)) throw new Error('expected an object with "response" or "fault"');
  const unknown = Object.keys(body).filter((k) => !FILE_KEYS.has(k));
  if (unknown.length > 0)
    throw new Error(`unknown key ${unknown.join(", ")}; expected match, response or fault`);
  if ("response" in body === "fault" in body)
    throw new Error('expected either "response" or "fault"');
  const match = body["match"] ?? {};
  if (!isObject(match)) throw new Error('"match" must be an object of input paths and values');
  const answer =
    "fault" in body
      ? { fault: faultOf(body["fault"]) }
      : { value: typedResult(op, body["response"]) };
  return { file, match, answer };
}

function faultOf(v: unknown): MockFault {
  if (!isObject(v) || typeof v["code"] !== "string" || typeof v["message"] !== "string")
    throw new Error('"fault" must have a string "code" (Client or Server) and "message"');
  const { detail, status } = v;
  if (detail !== undefined && typeof detail !== "string")
    throw new Error('"fault.detail" must be XML text');
  if (
    status !== undefined &&
    !(Number.isInteger(status) && Number(status) >= 400 && Number(status) < 600)
  )
    throw new Error('"fault.status" must be an HTTP status of 400 to 599');
  return {
    code: v["code"],
    message: v["message"],
    ...(detail !== undefined ? { detail } : {}),
    ...(status !== undefined ? { status: Number(status) } : {}),
  };
}

const CONFIG_KEYS = new Set(["dispatch", "seed", "operations", "$schema"]);

function readConfig(dir: string, problems: MockProblem[]): MockConfig {
  const file = path.join(dir, "config.json");
  if (!existsSync(file)) return {};
  try {
    const config: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (!isObject(config)) throw new Error("expected an object");
    for (const k of Object.keys(config))
      if (!CONFIG_KEYS.has(k))
        throw new Error(`unknown key ${k}; expected dispatch, seed or operations`);
    const seed = config["seed"];
    if (seed !== undefined && !Number.isSafeInteger(seed))
      throw new Error("seed must be an integer");
    const operations = config["operations"] ?? {};
    if (!isObject(operations)) throw new Error("operations must be an object");
    checkDispatch(config["dispatch"], "dispatch");
    for (const [name, o] of Object.entries(operations)) {
      if (!isObject(o)) throw new Error(`operations.${name} must be an object`);
      checkDispatch(o["dispatch"], `operations.${name}.dispatch`);
    }
    return config as MockConfig;
  } catch (e) {
    problems.push({ file: "config.json", message: e instanceof Error ? e.message : String(e) });
    return {};
  }
}

function checkDispatch(v: unknown, key: string): asserts v is DispatchStyle | undefined {
  if (v !== undefined && v !== "sequence" && v !== "random")
    throw new Error(`${key} must be "sequence" or "random"`);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

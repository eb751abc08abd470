/**
 * A mock's answers: each operation not written by hand in the mock's implementation answers from
 * its response files (`mocks/<Operation>/`), else a sample; or, recording, forwards the call to
 * the real service and stores the exchange. The scaffolded mock's methods call `answer`.
 */
import * as path from "node:path";
import type { AnyServiceDesc, MethodOf, OperationOf } from "../../descriptors/contract.js";
import type { ServiceDesc } from "../../descriptors/operations.js";
import { sampleOutput } from "../../descriptors/sample-values.js";
import { SoapFault } from "../../errors.js";
import { OperationDispatch } from "./dispatch.js";
import { readMockFolder, type MockFolder } from "./files.js";
import { matchOf, redactedResult, storedFault, writeRecording } from "./record.js";
import { operationFor } from "./typed.js";
import { MockFileError, type DispatchStyle, type MockFault, type MockProblem } from "./types.js";

export interface MocksOptions {
  /** The mocks folder. Default: `mocks`, from the current directory (the project's). */
  readonly dir?: string;
  /** Replace the config's `dispatch` and `seed`. */
  readonly dispatch?: DispatchStyle;
  readonly seed?: number;
  /** The services mocked, every one: what `load()` reads files for. */
  readonly services?: readonly AnyServiceDesc[];
}

/** A client's methods by name, as a generated client class has them. */
type Forward = (input: unknown) => Promise<unknown>;

export class Mocks {
  readonly dir: string;
  private folder: MockFolder | undefined;
  private readonly loadedFor = new Set<string>();
  private readonly dispatch = new Map<string, OperationDispatch>();
  private readonly recorders = new Map<string, { client: object; log: (line: string) => void }>();

  constructor(private readonly options: MocksOptions = {}) {
    this.dir = path.resolve(options.dir ?? "mocks");
  }

  /**
   * Reads and checks the response files of `services` (a server calls it before it listens):
   * throws a MockFileError naming each bad file. `answer` reads them on first use otherwise.
   */
  load(services: readonly AnyServiceDesc[] = this.options.services ?? []): void {
    const problems: MockProblem[] = [];
    const folder = readMockFolder(this.dir, services as readonly ServiceDesc[], problems);
    // Named as the user finds them: from the current directory (`mocks/GetMessages/x.json`).
    const named = (p: MockProblem) => ({
      ...p,
      file: path.relative(process.cwd(), path.join(this.dir, p.file)).split(path.sep).join("/"),
    });
    if (problems.length > 0) throw new MockFileError(problems.map(named));
    this.folder = folder;
    this.dispatch.clear();
    for (const s of services) this.loadedFor.add(s.name);
    const seed = this.options.seed ?? folder.config.seed ?? 0;
    for (const [operation, responses] of folder.responses) {
      const style =
        this.options.dispatch ??
        folder.config.operations?.[operation]?.dispatch ??
        folder.config.dispatch ??
        "sequence";
      this.dispatch.set(operation, new OperationDispatch(responses, style, seed, operation));
    }
  }

  /**
   * From now on, forwards every call of `service`'s operations to `client` (the generated client
   * of the real service) and stores each answer, or fault, as a response file.
   */
  record(service: AnyServiceDesc, client: object, log: (line: string) => void = () => {}): void {
    this.recorders.set(service.name, { client, log });
  }

  /** What the operation `method` answers `input`: a response file's, else the sample. */
  async answer<S extends AnyServiceDesc, M extends MethodOf<S>>(
    service: S,
    method: M,
    input: unknown,
  ): Promise<OperationOf<S, M>["serverOutput"]> {
    const operation = (service as ServiceDesc).methods[method]!;
    const recorder = this.recorders.get(service.name);
    if (recorder) {
      const result = operationFor(service as ServiceDesc, method)?.response?.prop;
      return (await this.forward(recorder, operation, method, input, result)) as never;
    }
    if (!this.loadedFor.has(service.name))
      this.load([...(this.options.services ?? []).filter((s) => s.name !== service.name), service]);
    const chosen = this.dispatch.get(operation)?.choose(input);
    if (!chosen) {
      const seed = this.options.seed ?? this.folder?.config.seed;
      // The one call site of seeded samples (issue #45): the builder takes `{ seed }`.
      return sampleOutput(service, method, seed === undefined ? {} : { seed });
    }
    if ("fault" in chosen.answer) throw faultOf(chosen.answer.fault);
    return chosen.answer.value as never;
  }

  private async forward(
    recorder: { client: object; log: (line: string) => void },
    operation: string,
    method: string,
    input: unknown,
    resultName: string | undefined,
  ): Promise<unknown> {
    const call = (recorder.client as Record<string, Forward>)[method];
    if (typeof call !== "function") throw new Error(`the client has no method ${method}`);
    const match = matchOf(input);
    let answer: { value: unknown } | { fault: MockFault };
    try {
      answer = { value: await call.call(recorder.client, input) };
    } catch (e) {
      if (!(e instanceof SoapFault)) throw e;
      answer = { fault: storedFault(e) };
    }
    // The caller gets the real answer; the file, its secrets redacted.
    const stored = "fault" in answer ? answer : { value: redactedResult(answer.value, resultName) };
    const file = writeRecording(this.dir, operation, match, stored);
    recorder.log(`${operation}: recorded ${path.relative(process.cwd(), file)}`);
    if ("fault" in answer) throw faultOf(answer.fault);
    return answer.value;
  }
}

/** The fault a file (or a recorded exchange) answers with, as the server sends it. */
function faultOf(f: MockFault): SoapFault {
  return new SoapFault({
    code: f.code,
    message: f.message,
    ...(f.detail !== undefined ? { detail: f.detail } : {}),
    ...(f.status !== undefined ? { httpStatus: f.status } : {}),
  });
}

/** The mocks of a scaffolded mock project (`mocks/` and `mocks/config.json`; docs/mocks.md). */
export function createMocks(options: MocksOptions = {}): Mocks {
  return new Mocks(options);
}

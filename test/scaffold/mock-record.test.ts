/**
 * `npm run record -- --backend URL` in a scaffolded mock: the example message service as the real
 * backend (port 0), each call forwarded through the generated client with the generator's network
 * options (here `--auth basic`), answered with the real answer and stored under mocks/ with no
 * credential; then `npm start` answers the recorded requests with the same values, and others with
 * samples.
 */
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REDACTED, sampleOutput, SoapFault } from "@wsdl-tsgen/runtime";
import { startServer, type RunningServer } from "../../examples/message-service/server.js";
import { ApiDesc } from "../../generated-samples/message-service/descriptors.js";
import { ApiClient } from "../../generated-samples/message-service/index.js";
import { ALICE, SEED_PATH, tempDir } from "../message-service/helpers.js";
import { mockProject, projectTest, startMock } from "./mock-project.js";

const RANGE = { ...ALICE, startDate: "2000-01-01T00:00:00Z", endDate: "2100-01-01T00:00:00Z" };
const STRANGER = { email: "nobody@example.com", password: "wrong-pass" };
const SECRET = "hunter2-recorder";

let backend: RunningServer;
let project = "";
beforeAll(async () => {
  backend = await startServer({
    port: 0,
    host: "127.0.0.1",
    dbPath: path.join(tempDir(), "messages.db"),
    seedPath: SEED_PATH,
  });
  project = await mockProject("record");
});
afterAll(() => backend?.close());

/** The three exchanges: two results and a fault, as the client gives them. */
async function exchanges(endpoint: string) {
  const api = new ApiClient({ endpoint });
  return {
    messages: await api.getMessages(ALICE),
    range: await api.getMessagesInDateRange(RANGE),
    fault: await api.getMessages(STRANGER).catch((e: unknown) => e),
  };
}

const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();

describe("record and replay", () => {
  it("records real exchanges without credentials, then replays them with the same values", async () => {
    const real = await exchanges(backend.url);
    expect(real.messages!.length).toBeGreaterThan(0);
    expect(real.fault).toBeInstanceOf(SoapFault);

    const recorder = await startMock(
      project,
      ["--record", "--backend", backend.url, "--auth", "basic", "--user", "recorder"],
      { WSDL_TSGEN_PASSWORD: SECRET },
    );
    expect(recorder.stderr).toBe("");
    expect(recorder.output()).toContain(`Recording: forwarding to ${backend.url}`);
    const recorded = await exchanges(recorder.endpoint);
    await recorder.stop();
    expect(recorded).toEqual(real);

    const mocks = path.join(project, "mocks");
    const files = filesUnder(mocks);
    expect(files).toEqual([
      expect.stringMatching(/^GetMessages\/recorded-[0-9a-f]{12}\.json$/),
      expect.stringMatching(/^GetMessages\/recorded-[0-9a-f]{12}\.json$/),
      expect.stringMatching(/^GetMessagesInDateRange\/recorded-[0-9a-f]{12}\.json$/),
    ]);
    const texts = files.map((f) => readFileSync(path.join(mocks, f), "utf8"));
    for (const text of texts) {
      for (const secret of [ALICE.password, STRANGER.password, SECRET, "cmVjb3JkZXI6"])
        expect(text).not.toContain(secret);
      expect(text).not.toMatch(/authorization|cookie|wsse|Security|Basic /i);
      expect(JSON.parse(text).match.password).toBe(REDACTED);
    }
    const range = JSON.parse(texts[2]!);
    expect(range.match).toEqual({
      email: ALICE.email,
      password: REDACTED,
      startDate: RANGE.startDate,
      endDate: RANGE.endDate,
    });
    expect(texts.map((t) => Object.keys(JSON.parse(t)).sort())).toContainEqual(["fault", "match"]);

    // Replayed by `npm start`: the same values, whatever password is sent; others get samples.
    const replay = await startMock(project, []);
    expect(replay.stderr).toBe("");
    expect(await exchanges(replay.endpoint)).toEqual(real);
    const api = new ApiClient({ endpoint: replay.endpoint });
    expect(await api.getMessages({ ...ALICE, password: "another" })).toEqual(real.messages);
    expect(await api.getMessages({ email: "bob@example.com" })).toEqual(
      sampleOutput(ApiDesc, "getMessages"),
    );
    await replay.stop();
    // The project's own test expects what the mock answers: recorded files change nothing there.
    const own = projectTest(project);
    expect(own.code, own.output).toBe(0);
  });
});

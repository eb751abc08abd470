/**
 * `generate --watch` (issue #32): regenerates when the WSDL, a local schema it imports or the config
 * file changes, saying which, keeps watching through a broken save, and stops cleanly on SIGINT.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../support/tmp.js";
import { wsdl } from "../support/one-operation-wsdl.js";
import { watchFiles } from "../../src/cli/watch.js";

const BIN = fileURLToPath(new URL("../../bin/wsdl-tsgen.js", import.meta.url));
const SCHEMA = (
  field: string,
) => `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:n">
  <xs:element name="Req"><xs:complexType><xs:sequence><xs:element name="${field}" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="Res"><xs:complexType/></xs:element>
</xs:schema>`;
const WSDL = wsdl({
  types: `<xs:schema targetNamespace="urn:x"><xs:import namespace="urn:n" schemaLocation="types.xsd"/></xs:schema>`,
});

/** A running CLI: its output so far, and a wait for a text to appear in it. */
function start(dir: string, args: string[]) {
  const child: ChildProcess = spawn(process.execPath, [BIN, ...args], { cwd: dir });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const until = async (text: string, after = 0) => {
    for (let i = 0; i < 300; i++) {
      if (out.indexOf(text, after) !== -1) return out.indexOf(text, after) + text.length;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no "${text}" in:\n${out}`);
  };
  return { child, until, exited, output: () => out };
}

let running: ChildProcess | undefined;
afterEach(() => void running?.kill("SIGKILL"));

describe("generate --watch", () => {
  it("regenerates on each change to what it read, says which, and stops on SIGINT", async () => {
    const dir = tempDir();
    writeFileSync(`${dir}/service.wsdl`, WSDL);
    writeFileSync(`${dir}/types.xsd`, SCHEMA("first"));
    const cli = start(dir, ["generate", "service.wsdl", "--out", "gen", "--watch"]);
    running = cli.child;
    let at = await cli.until("watching 2 files; Ctrl-C stops");
    expect(readFileSync(`${dir}/gen/types.ts`, "utf8")).toContain("first");

    writeFileSync(`${dir}/types.xsd`, SCHEMA("second"));
    at = await cli.until("changed: types.xsd", at);
    at = await cli.until("files written", at);
    expect(readFileSync(`${dir}/gen/types.ts`, "utf8")).toContain("second");

    // A broken save is reported, and watching goes on.
    writeFileSync(`${dir}/service.wsdl`, "<wsdl:definitions");
    at = await cli.until("changed: service.wsdl", at);
    at = await cli.until("error XML_MALFORMED", at);
    writeFileSync(`${dir}/service.wsdl`, WSDL.replace('name="S"', 'name="Renamed"'));
    at = await cli.until("changed: service.wsdl", at);
    at = await cli.until("written", at);
    expect(readFileSync(`${dir}/gen/client.ts`, "utf8")).toContain("RenamedClient");

    cli.child.kill("SIGINT");
    expect(await cli.exited).toBe(0);
    expect(cli.output().slice(at)).toContain("stopped watching");
  });

  it("watches the config file too, and refuses --check", async () => {
    const dir = tempDir();
    writeFileSync(`${dir}/service.wsdl`, WSDL);
    writeFileSync(`${dir}/types.xsd`, SCHEMA("doc"));
    const config = (runtimeImport: string) =>
      JSON.stringify({ sources: [{ wsdl: "service.wsdl", out: "gen", runtimeImport }] });
    writeFileSync(`${dir}/wsdl-tsgen.config.json`, config("@wsdl-tsgen/runtime"));
    const cli = start(dir, ["generate", "--watch"]);
    running = cli.child;
    let at = await cli.until("watching 3 files");
    expect(readFileSync(`${dir}/gen/client.ts`, "utf8")).toContain('from "@wsdl-tsgen/runtime"');
    writeFileSync(`${dir}/wsdl-tsgen.config.json`, config("./rt.js"));
    at = await cli.until("changed: wsdl-tsgen.config.json", at);
    await cli.until("written", at);
    expect(readFileSync(`${dir}/gen/client.ts`, "utf8")).toContain('from "./rt.js"');
    cli.child.kill("SIGTERM");
    expect(await cli.exited).toBe(0);

    const checked = start(dir, ["generate", "--watch", "--check"]);
    expect(await checked.exited).toBe(2);
    expect(checked.output()).toContain("--watch writes; it does not go with --check");
    // Refused before any work: no check ran first.
    expect(checked.output()).not.toMatch(/up to date|out of date/);
  });

  it("says when a folder cannot be watched, rather than watching nothing in silence", async () => {
    const said: string[] = [];
    const stop = new AbortController();
    const watching = watchFiles(
      [`${tempDir()}/gone/service.wsdl`],
      () => Promise.resolve([]),
      stop.signal,
      (why) => said.push(why),
    );
    stop.abort();
    await watching;
    expect(said).toEqual([expect.stringMatching(/^cannot watch .*gone: ENOENT/)]);
  });
});

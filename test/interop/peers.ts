/**
 * Third-party SOAP clients from Debian's packages, as their users run them against a service: each
 * reads our server's ?WSDL with its own tooling, then calls it through a small driver in clients/
 * that prints one JSON line per step. A peer that is not installed is reported by `missing`, so its
 * tests skip saying what to install (`.ci/run` installs them all).
 */
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { ApiPortName } from "../../generated-samples/message-service/index.js";

const CLIENTS = path.join(path.dirname(fileURLToPath(import.meta.url)), "clients");

/** One step of a driver: `list`, `range:<start>:<end>` (colons in the times written as `_`), `delete:<id>`, `wrong`. */
export type Step = string;

export interface StepResult {
  readonly step: Step;
  readonly value: unknown;
}

export interface Peer {
  readonly name: string;
  /** The ports it can call (JAX-WS has no HTTP GET/POST bindings). */
  readonly ports: readonly ApiPortName[];
  /** What to install when it is absent; undefined when it can run. */
  missing(): string | undefined;
  /** Generates and compiles its stubs from the served WSDL, into `dir`. */
  prepare(dir: string, endpoint: string): Promise<void>;
  /** Runs the steps over one port. */
  run(
    dir: string,
    endpoint: string,
    port: ApiPortName,
    steps: readonly Step[],
  ): Promise<StepResult[]>;
  /** How it shows an xs:dateTime given as `lexical` (no offset). */
  date(lexical: string): string;
  /** How it shows an element that is present but empty (`<Transcription />`). */
  readonly emptyString: "" | null;
  /** How it reports a SOAP fault with `code` (local name: Client, Sender) and `message`. */
  fault(port: ApiPortName, code: string, message: string): unknown;
  /** How it reports an HTTP GET/POST binding's error status carrying `message` as text. */
  httpError(message: string): unknown;
  /** What a successful DeleteMessage (no result) gives over `port`. */
  deleted(port: ApiPortName): unknown;
}

const RUN_LIMIT_MS = 120_000;

function run(cmd: string, args: readonly string[], cwd?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      args,
      { cwd, timeout: RUN_LIMIT_MS, maxBuffer: 16 * 1024 * 1024, encoding: "utf8" },
      (err, stdout, stderr) => {
        if (err)
          reject(
            new Error(
              `${cmd} ${args.join(" ")} failed: ${err.message}\n${stderr}\n${stdout}`.trim(),
            ),
          );
        else resolve(stdout);
      },
    );
  });
}

function lines(stdout: string): StepResult[] {
  return stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as StepResult);
}

function has(cmd: string, ...args: string[]): boolean {
  return spawnSync(cmd, args, { stdio: "ignore", timeout: 30_000 }).status === 0;
}

/** An xs:dateTime's fraction written with exactly `digits` digits (rounded half up), or none when `dropZero` and it is zero. */
function withFraction(lexical: string, digits: number, dropZero: boolean): string {
  const m = /^([^.]+)(?:\.(\d+))?$/.exec(lexical)!;
  const scaled = Math.round(Number(`0.${m[2] ?? "0"}`) * 10 ** digits);
  if (scaled === 0 && dropZero) return m[1]!;
  return `${m[1]}.${String(scaled).padStart(digits, "0")}`;
}

const PYTHONS = ["/usr/bin/python3", "python3"];
let python: string | undefined | null = null;
/** Debian's python3-zeep installs into the system Python, which may not be the first python3 on PATH. */
export function zeepPython(): string | undefined {
  if (python === null) python = PYTHONS.find((p) => has(p, "-c", "import zeep"));
  return python;
}

export const ZEEP: Peer = {
  name: "Python zeep",
  ports: ["ApiSoap", "ApiSoap12", "ApiHttpGet", "ApiHttpPost"],
  missing: () =>
    zeepPython() ? undefined : "Python zeep is not installed (apt-get install python3-zeep)",
  prepare: async () => {},
  run: async (_dir, endpoint, port, steps) =>
    lines(
      await run(zeepPython()!, [
        path.join(CLIENTS, "zeep_client.py"),
        `${endpoint}?WSDL`,
        port,
        ...steps,
      ]),
    ),
  // Python's datetime keeps microseconds, and isoformat() leaves out a zero fraction.
  date: (lexical) => withFraction(lexical, 6, true),
  // zeep reads an empty string element as None.
  emptyString: null,
  fault: (port, code, message) => ({ fault: `soap:${code}`, message }),
  // zeep raises a Fault without a code for an HTTP binding's error status, its message the body.
  httpError: (message) => ({ fault: null, message }),
  // zeep 4.2 cannot read an HTTP GET/POST operation whose output message has no parts: it fails on
  // the empty 200 answer (the message is deleted). Genuine ASMX answers the same (Content-Length: 0,
  // captures/ok-httpget-DeleteMessage), so zeep fails against it alike.
  deleted: (port) =>
    port === "ApiHttpGet" || port === "ApiHttpPost"
      ? { error: "AttributeError: 'NoneType' object has no attribute 'deserialize'" }
      : { deleted: null },
};

const MONO_PROTOCOLS: Readonly<Record<ApiPortName, string>> = {
  ApiSoap: "SOAP",
  ApiSoap12: "SOAP12",
  ApiHttpGet: "HttpGet",
  ApiHttpPost: "HttpPost",
};

export const MONO: Peer = {
  name: "Mono's .NET web service client (wsdl.exe proxies)",
  ports: ["ApiSoap", "ApiSoap12", "ApiHttpGet", "ApiHttpPost"],
  missing: () =>
    has("sh", "-c", "command -v wsdl && command -v mcs && command -v mono")
      ? undefined
      : "Mono's wsdl.exe, mcs and mono are not installed (apt-get install mono-devel)",
  prepare: async (dir, endpoint) => {
    // One proxy per protocol, as a .NET developer makes them: wsdl.exe /protocol:HttpGet … ?WSDL.
    const sources: string[] = [];
    for (const protocol of Object.values(MONO_PROTOCOLS)) {
      const out = path.join(dir, `Api${protocol}.cs`);
      await run("wsdl", [
        "-nologo",
        `-protocol:${protocol}`,
        `-namespace:Peer${protocol}`,
        `-out:${out}`,
        `${endpoint}?WSDL`,
      ]);
      sources.push(out);
    }
    const refs = ["System.Web.Services.dll", "System.Xml.dll", "System.EnterpriseServices.dll"].map(
      (r) => `-r:${r}`,
    );
    await run("mcs", [
      "-nologo",
      `-out:${path.join(dir, "client.exe")}`,
      ...refs,
      path.join(CLIENTS, "MonoClient.cs"),
      ...sources,
    ]);
  },
  run: async (dir, endpoint, port, steps) =>
    lines(await run("mono", [path.join(dir, "client.exe"), endpoint, port, ...steps])),
  // System.DateTime keeps 100 ns ticks; the round-trip format writes all seven digits, and no offset for an unspecified kind.
  date: (lexical) => withFraction(lexical, 7, false),
  emptyString: "",
  fault: (_port, code, message) => ({ fault: code, message }),
  // HttpGetClientProtocol throws a WebException for the status; the body is not kept.
  httpError: () => ({ status: 500 }),
  deleted: () => ({ deleted: null }),
};

const JAVA_LIBS = ["jaxws-rt", "jaxws-api", "jaxb-api", "jws-api", "javax.xml.soap-api"].map(
  (j) => `/usr/share/java/${j}.jar`,
);

/** wsimport's stubs of `wsdl` (package `peer`) and the driver `source` in clients/, compiled into `dir`/classes. */
export async function compileJaxws(dir: string, wsdl: string, source: string): Promise<void> {
  const src = path.join(dir, "src");
  mkdirSync(src, { recursive: true });
  await run("wsimport", [
    "-quiet",
    "-extension",
    "-Xnocompile",
    "-keep",
    "-p",
    "peer",
    "-s",
    src,
    "-d",
    src,
    wsdl,
  ]);
  const stubs = readdirSync(path.join(src, "peer"))
    .filter((f) => f.endsWith(".java"))
    .map((f) => path.join(src, "peer", f));
  await run("javac", [
    "-nowarn",
    "-encoding",
    "UTF-8",
    "-cp",
    JAVA_LIBS.join(":"),
    "-d",
    path.join(dir, "classes"),
    path.join(CLIENTS, source),
    ...stubs,
  ]);
}

/** The JVM's arguments before the main class, for classes compiled by compileJaxws into `dir`. */
export function javaArgs(dir: string): string[] {
  // Monitoring (gmbal) needs jars Debian's jaxws does not put on its class path: it is off.
  return [
    "-Dfile.encoding=UTF-8",
    "-Dcom.sun.xml.ws.monitoring.endpoint=false",
    "-cp",
    [path.join(dir, "classes"), ...JAVA_LIBS].join(":"),
  ];
}

export const JAXWS: Peer = {
  name: "the JAX-WS reference implementation (wsimport stubs)",
  ports: ["ApiSoap", "ApiSoap12"],
  missing: () =>
    has("sh", "-c", "command -v wsimport && command -v javac && command -v java") &&
    JAVA_LIBS.every((j) => existsSync(j))
      ? undefined
      : "the JAX-WS RI is not installed (apt-get install jaxws libjaxws-java, with a JDK)",
  prepare: (dir, endpoint) => compileJaxws(dir, `${endpoint}?WSDL`, "JaxwsClient.java"),
  run: async (dir, endpoint, port, steps) =>
    lines(await run("java", [...javaArgs(dir), "JaxwsClient", endpoint, port, ...steps])),
  // XMLGregorianCalendar keeps the lexical value as written.
  date: (lexical) => lexical,
  emptyString: "",
  fault: (_port, code, message) => ({ fault: code, message }),
  httpError: () => {
    throw new Error("JAX-WS has no HTTP bindings");
  },
  deleted: () => ({ deleted: null }),
};

export const PEERS: readonly Peer[] = [ZEEP, MONO, JAXWS];

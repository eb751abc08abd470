/**
 * The client's methods and the implementation's are written out from the operations: an editor
 * shows each operation's documentation and typed signature on them.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const DIR = path.resolve("generated-samples/message-service");
const PROBE = path.join(DIR, "probe.ts");
const PROBE_TEXT = `import { ApiClient, type ApiService } from "./index.js";
const client = new ApiClient({ port: "ApiSoap12" });
void client.getMessagesInDateRange;
void client.port;
declare const impl: ApiService;
void impl.deleteMessage;
`;

/** A language service over the message service's generated code and the probe file. */
function languageService(): ts.LanguageService {
  const options: ts.CompilerOptions = {
    strict: true,
    exactOptionalPropertyTypes: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: ["node"],
    noEmit: true,
    baseUrl: path.resolve("."),
    paths: { "@wsdl-tsgen/runtime": ["./runtime/src/index.ts"] },
  };
  const read = (f: string) => (f === PROBE ? PROBE_TEXT : ts.sys.readFile(f));
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => options,
    getScriptFileNames: () => [PROBE],
    getScriptVersion: () => "1",
    getScriptSnapshot: (f) => {
      const text = read(f);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => path.resolve("."),
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (f) => f === PROBE || ts.sys.fileExists(f),
    readFile: read,
  };
  return ts.createLanguageService(host);
}

describe("hover on the client and implementation", () => {
  const service = languageService();
  const hover = (after: string) => {
    const at = PROBE_TEXT.indexOf(after) + after.length + 1;
    const info = service.getQuickInfoAtPosition(PROBE, at)!;
    return {
      type: ts.displayPartsToString(info.displayParts),
      doc: ts.displayPartsToString(info.documentation),
    };
  };

  it("compiles without an error", () => {
    const errors = [
      ...service.getSemanticDiagnostics(PROBE),
      ...service.getSyntacticDiagnostics(PROBE),
    ].map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(errors).toEqual([]);
  });

  it("shows a client method's documentation and typed signature", () => {
    const { type, doc } = hover("void client");
    expect(doc).toBe(
      "Returns the messages whose DateArrived lies in [startDate, endDate] (both bounds inclusive).",
    );
    expect(type).toContain("input: GetMessagesInDateRangeInput");
    expect(type).toContain("Promise<ArrayOfMessages | undefined>");
  });

  it("types the client's port as the port names, documented", () => {
    const { type, doc } = hover("void client.getMessagesInDateRange;\nvoid client");
    expect(type).toBe("(property) ApiClient.port: ApiPortName");
    expect(doc).toBe("The port this client sends to.");
  });

  it("shows an implementation method's documentation and typed signature", () => {
    const { type, doc } = hover("void impl");
    expect(doc).toBe("Deletes one message of the account.");
    expect(type).toContain("input: DeleteMessage");
    expect(type).toContain("context: ApiContext");
    expect(type).toContain("void | Promise<void>");
  });

  it("reads the generated files it probes", () => {
    expect(readFileSync(path.join(DIR, "client.ts"), "utf8")).toContain(
      "clientClass<typeof ApiDesc, ApiClient, ApiClientOptions>(ApiDesc)",
    );
  });
});

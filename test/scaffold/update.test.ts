/**
 * `scaffold --update`'s editing of src/service.ts: methods of new operations are added in WSDL
 * order
 * with the imports they need, in the file's own layout, and nothing else in the file changes by a
 * byte; removed operations and changed signatures are reported, never edited.
 */
import ts from "typescript";
import { describe, expect, it } from "vitest";
import {
  updateService,
  type ImportSpec,
  type MethodSpec,
  type ServiceSpec,
} from "../../src/scaffold/update.js";

const SDK = "./generated/index.js";
const RUNTIME = "@wsdl-tsgen/runtime";
const FILE = "src/service.ts";

/** A method as the template renders it, with the imports it needs. */
function method(name: string, operation: string, input: string, output = "void"): MethodSpec {
  const head = `  async ${name}(input: ${input}, context: ApiContext): Promise<${output}> {`;
  const text = `  /** Calls ${operation}. */\n${head}\n    throw notImplemented("${operation}");\n  }`;
  const types = [input, ...output.split(" | ").filter((t) => t !== "void" && t !== "undefined")];
  const imports: ImportSpec[] = [
    ...types.map((name) => ({ name, from: SDK, typeOnly: true })),
    { name: "ApiContext", from: SDK, typeOnly: true },
    { name: "notImplemented", from: RUNTIME, typeOnly: false },
  ];
  return { method: name, operation, inputType: input, outputType: output, text, imports };
}

const GET = method("getMessages", "GetMessages", "GetMessages", "ArrayOfMessagesInput | undefined");
const SEND = method("sendMessage", "SendMessage", "SendMessage", "SendMessageResult");
const DELETE = method("deleteMessage", "DeleteMessage", "DeleteMessage");

function api(methods: readonly MethodSpec[], objectName = "apiService"): ServiceSpec {
  return { objectName, serviceName: "Api", methods };
}

/** src/service.ts as the template writes it for GetMessages and DeleteMessage. */
const TEMPLATE = `/** The implementation of the Api service. */
import { notImplemented } from "@wsdl-tsgen/runtime";
import type {
  ApiContext,
  ApiService,
  ArrayOfMessagesInput,
  DeleteMessage,
  GetMessages,
} from "./generated/index.js";

/** The implementation of service Api: one method per operation. */
export const apiService = {
${GET.text},

${DELETE.text},
} satisfies ApiService;
`;

/**
 * Removes each of `inserted` (once, in order of search) from `after`: what is left must be
 * `before`.
 */
function withoutInsertions(after: string, inserted: readonly string[]): string {
  let text = after;
  for (const s of inserted) {
    const at = text.indexOf(s);
    expect(at, `inserted ${JSON.stringify(s)}`).toBeGreaterThanOrEqual(0);
    text = text.slice(0, at) + text.slice(at + s.length);
  }
  return text;
}

describe("updateService: adding methods", () => {
  it("adds a new operation's method between the ones before and after it, and its import", () => {
    const result = updateService(TEMPLATE, FILE, [api([GET, SEND, DELETE])]);
    expect(result.text).toBe(
      TEMPLATE.replace(`${GET.text},\n`, `${GET.text},\n\n${SEND.text},\n`).replace(
        "  GetMessages,\n",
        "  GetMessages,\n  SendMessage,\n  SendMessageResult,\n",
      ),
    );
    expect(result.changes).toEqual([
      "added sendMessage (SendMessage)",
      "imported SendMessage",
      "imported SendMessageResult",
    ]);
    expect(result.diagnostics).toEqual([]);
  });

  it("adds methods first when no method of the WSDL precedes them, in WSDL order", () => {
    const first = method("aaa", "Aaa", "Aaa");
    const second = method("bbb", "Bbb", "Bbb");
    const { text } = updateService(TEMPLATE, FILE, [api([first, second, GET, DELETE])]);
    expect(text).toContain(`export const apiService = {\n${first.text},\n\n${second.text},\n\n`);
    expect(text).toContain(`import type {\n  Aaa,\n  ApiContext,\n  ApiService,`);
    expect(text).toContain(`  ArrayOfMessagesInput,\n  Bbb,\n  DeleteMessage,`);
  });

  it("adds methods last, after a last member with and without a trailing comma", () => {
    const withComma = updateService(TEMPLATE, FILE, [api([GET, DELETE, SEND])]).text;
    expect(withComma).toContain(`${DELETE.text},\n\n${SEND.text},\n} satisfies ApiService;`);
    const noComma = TEMPLATE.replace(`${DELETE.text},\n}`, `${DELETE.text}\n}`);
    const other = method("other", "Other", "Other");
    const text = updateService(noComma, FILE, [api([GET, DELETE, SEND, other])]).text;
    expect(text).toContain(`${DELETE.text},\n\n${SEND.text},\n\n${other.text}\n} satisfies`);
  });

  it("keeps members without blank lines between them so", () => {
    const dense = TEMPLATE.replace(`${GET.text},\n\n`, `${GET.text},\n`);
    const { text } = updateService(dense, FILE, [api([GET, SEND, DELETE])]);
    expect(text).toContain(`${GET.text},\n${SEND.text},\n${DELETE.text},\n}`);
  });

  it("fills an empty object", () => {
    const empty = TEMPLATE.replace(/= \{[^]*\} satisfies/, "= {} satisfies");
    const { text } = updateService(empty, FILE, [api([GET, DELETE])]);
    expect(text).toBe(TEMPLATE);
  });

  it("finds the object through a type annotation, `as`, parentheses, and arrow properties", () => {
    const file = `import { notImplemented } from "@wsdl-tsgen/runtime";
import type { ApiContext, ApiService, DeleteMessage, GetMessages } from "./generated/index.js";

export const apiService: ApiService = ({
  getMessages: async (input: GetMessages, ctx) => [],
  deleteMessage: async (input, ctx) => {},
} as ApiService);
`;
    const { text, diagnostics } = updateService(file, FILE, [api([GET, SEND, DELETE])]);
    expect(diagnostics).toEqual([]);
    expect(text).toBe(
      file
        .replace("GetMessages }", "GetMessages, SendMessage, SendMessageResult }")
        .replace("=> [],\n", `=> [],\n${SEND.text},\n`),
    );
  });

  it("adds a type to a value import as `type X`, sorted in by code point, and new imports last", () => {
    const file = `import { foo } from "./generated/index.js";

export const apiService = {
  async getMessages() {
    return foo;
  },
};
`;
    const { text, changes } = updateService(file, FILE, [api([GET, SEND])]);
    expect(text)
      .toBe(`import { type ApiContext, type SendMessage, type SendMessageResult, foo } from "./generated/index.js";
import { notImplemented } from "@wsdl-tsgen/runtime";

export const apiService = {
  async getMessages() {
    return foo;
  },

${SEND.text},
};
`);
    expect(changes).toContain("imported notImplemented");
  });

  it("appends to an unsorted import, and writes a long new import on lines of its own", () => {
    const file = `import type { Zed, Alpha } from "./generated/index.js";

export const apiService = {};
`;
    const long = method(
      "m",
      "M",
      "AVeryLongInputTypeNameThatTakesUpSpace",
      "AnotherVeryLongOutputName",
    );
    const types: ImportSpec[] = [
      ...long.imports,
      { name: "Extra", from: "./other.js", typeOnly: true },
    ];
    const { text } = updateService(file, FILE, [api([{ ...long, imports: types }])]);
    expect(text).toContain(
      `import type { Zed, Alpha, AVeryLongInputTypeNameThatTakesUpSpace, AnotherVeryLongOutputName, ApiContext } from "./generated/index.js";\n`,
    );
    expect(text).toContain(
      `import { notImplemented } from "@wsdl-tsgen/runtime";\nimport type { Extra } from "./other.js";\n`,
    );
  });

  it("writes a new import that would pass 100 columns as Prettier does", () => {
    const names = [
      "AVeryLongTypeNameNumberOne",
      "AVeryLongTypeNameNumberTwo",
      "AVeryLongTypeNameThree",
    ];
    const spec: MethodSpec = {
      ...DELETE,
      imports: names.map((name) => ({ name, from: "./x.js", typeOnly: true })),
    };
    const file = `import type { DeleteMessage } from "./generated/index.js";\n\nexport const apiService = {};\n`;
    const { text } = updateService(file, FILE, [api([spec])]);
    expect(text).toContain(
      `import type {\n${names.map((n) => `  ${n},\n`).join("")}} from "./x.js";\n`,
    );
  });

  it("keeps a comment after the member it follows on that member's line", () => {
    const file = TEMPLATE.replace(
      `  },\n\n${DELETE.text}`,
      `  }, // keep me here\n\n${DELETE.text}`,
    );
    const { text } = updateService(file, FILE, [api([GET, SEND, DELETE])]);
    expect(text).toContain(`  }, // keep me here\n\n${SEND.text},\n\n${DELETE.text}`);
  });

  it("writes CRLF line breaks into a CRLF file", () => {
    const crlf = TEMPLATE.replace(/\n/g, "\r\n");
    const { text } = updateService(crlf, FILE, [api([GET, SEND, DELETE])]);
    expect(text).not.toMatch(/[^\r]\n/);
    expect(text).toContain(SEND.text.replace(/\n/g, "\r\n"));
  });

  it("completes several service objects in one file", () => {
    const file = `${TEMPLATE}\nexport const otherService = {\n} satisfies OtherService;\n`;
    const other: ServiceSpec = {
      objectName: "otherService",
      serviceName: "Other",
      methods: [SEND],
    };
    const { text, changes } = updateService(file, FILE, [api([GET, DELETE]), other]);
    expect(text).toContain(
      `export const otherService = {\n${SEND.text},\n} satisfies OtherService;`,
    );
    expect(changes).toEqual([
      "added sendMessage (SendMessage)",
      "imported SendMessage",
      "imported SendMessageResult",
    ]);
  });
});

/** A user's file: odd layout and comments everywhere, edited bodies, an arrow property. */
const EDITED = `/** The implementation of the Api service. */
import { notImplemented } from "@wsdl-tsgen/runtime"
import type { ApiContext, ApiService,
    ArrayOfMessagesInput, DeleteMessage,GetMessages } from "./generated/index.js"   // types

// state kept between calls
const store = new Map<string,  string[]>( ) ;

export const apiService = ( {
    /* fetched
       from the store */
    async   getMessages( input :GetMessages ,context: ApiContext ) : Promise< undefined|ArrayOfMessagesInput >{
        const  rows = store.get( input.email ) ?? [ ] // maybe none
        ; return rows.length ?rows.map(( r ) => ( { Id : 1 , Sender : r } ) ) : undefined
    }   ,   // after getMessages
\t\t/** tabs */
\t\tdeleteMessage : async ( input : DeleteMessage ) => { store.delete(input.email) ;},
} ) satisfies ApiService
`;

describe("updateService: the user's code", () => {
  it("changes no byte outside what it inserts", () => {
    const result = updateService(EDITED, FILE, [api([GET, SEND, DELETE])]);
    expect(result.diagnostics).toEqual([]);
    expect(
      withoutInsertions(result.text, [`\n${SEND.text},`, `, SendMessage, SendMessageResult`]),
    ).toBe(EDITED);
    // The insertions land where the layout says: no blank line between these members, so none.
    expect(result.text).toContain(`}   ,   // after getMessages\n${SEND.text},\n\t\t/** tabs */`);
    expect(result.text).toContain(
      `DeleteMessage,GetMessages, SendMessage, SendMessageResult } from`,
    );
  });

  it("is idempotent: a second run on its output changes and reports nothing", () => {
    for (const file of [TEMPLATE, EDITED]) {
      const once = updateService(file, FILE, [api([SEND, GET, method("x", "X", "X"), DELETE])]);
      expect(once.changes.length).toBeGreaterThan(0);
      const twice = updateService(once.text, FILE, [
        api([SEND, GET, method("x", "X", "X"), DELETE]),
      ]);
      expect(twice.text).toBe(once.text);
      expect(twice.changes).toEqual([]);
      expect(twice.diagnostics).toEqual(once.diagnostics);
    }
  });

  it("returns the text unchanged when the file is up to date", () => {
    const result = updateService(TEMPLATE, FILE, [api([GET, DELETE])]);
    expect(result).toEqual({ text: TEMPLATE, changes: [], diagnostics: [] });
  });

  it("imports nothing the file has, and reports a name it binds otherwise", () => {
    const file = TEMPLATE.replace(
      'import { notImplemented } from "@wsdl-tsgen/runtime";',
      'import { notImplemented } from "./my-errors.js";',
    );
    const result = updateService(file, FILE, [api([GET, SEND, DELETE])]);
    expect(result.text).not.toContain(`import { notImplemented } from "@wsdl-tsgen/runtime"`);
    expect(result.changes).not.toContain("imported notImplemented");
    expect(result.diagnostics).toEqual([
      {
        code: "SCAFFOLD_IMPORT_CONFLICT",
        severity: "warning",
        message:
          'the added methods use notImplemented from "@wsdl-tsgen/runtime", but this file already declares notImplemented here; import it yourself under a name that fits',
        file: FILE,
        line: 2,
        column: 10,
      },
    ]);
  });
});

describe("updateService: what it reports and does not edit", () => {
  it("keeps a method whose operation is gone, with a warning at its name, and one at each import only it uses", () => {
    const result = updateService(TEMPLATE, FILE, [api([GET])]);
    expect(result.text).toBe(TEMPLATE);
    expect(result.changes).toEqual([]);
    expect(result.diagnostics).toEqual([
      {
        code: "SCAFFOLD_OPERATION_REMOVED",
        severity: "warning",
        message:
          "method deleteMessage of apiService: no operation of service Api in the WSDL has this method any more (it was removed or renamed); remove the method, or keep it as a helper outside the object",
        file: FILE,
        line: 19,
        column: 9,
      },
      {
        code: "SCAFFOLD_IMPORT_UNUSED",
        severity: "warning",
        message:
          'the import of DeleteMessage from "./generated/index.js" is left unused by the operations the WSDL no longer has (only removed operations\' methods use it); remove it with the methods, or the file no longer compiles once the SDK stops exporting it',
        file: FILE,
        line: 7,
        column: 3,
      },
    ]);
  });

  it("reports no import a present method or the file's own code still uses, and an import nothing uses", () => {
    const file = TEMPLATE.replace(
      "export const apiService",
      "const keep: DeleteMessage | undefined = undefined;\nexport const apiService",
    );
    const kept = updateService(file, FILE, [api([GET])]).diagnostics.map((d) => d.code);
    expect(kept).toEqual(["SCAFFOLD_OPERATION_REMOVED"]);
    // With no operation removed, an import is the user's business.
    const withSend = TEMPLATE.replace("  GetMessages,\n", "  GetMessages,\n  SendMessage,\n");
    expect(updateService(withSend, FILE, [api([GET, DELETE])]).diagnostics).toEqual([]);
    const both = updateService(
      TEMPLATE.replace("  GetMessages,\n", "  GetMessages,\n  SendMessage,\n"),
      FILE,
      [api([GET])],
    );
    expect(
      both.diagnostics.map((d) => [d.code, d.line, d.message.includes("nothing uses it")]),
    ).toEqual([
      ["SCAFFOLD_OPERATION_REMOVED", 20, false],
      ["SCAFFOLD_IMPORT_UNUSED", 7, false],
      ["SCAFFOLD_IMPORT_UNUSED", 9, true],
    ]);
    // Unused before, it is not blamed on the operations the WSDL no longer has.
    expect(both.diagnostics[2]!.message).not.toContain("left unused by the operations");
  });

  it("reports it where tsc reports the excess property of `satisfies ApiService`", () => {
    const file = `declare function notImplemented(operation: string): Error;
interface ApiContext { readonly user?: string }
interface GetMessages { readonly email: string }
type ArrayOfMessagesInput = readonly string[];
interface ApiService {
  getMessages(input: GetMessages, context: ApiContext): Promise<ArrayOfMessagesInput | undefined>;
}
export const apiService = {
${GET.text},

  /** Was an operation. */
  async   deleteMessage(input: unknown, context: ApiContext): Promise<void> {
    throw notImplemented("DeleteMessage");
  },
} satisfies ApiService;
`;
    const [ours] = updateService(file, FILE, [api([GET])]).diagnostics;
    const excess = compile(file).filter((d) => d.code === 2353);
    expect(excess).toHaveLength(1);
    const { line, character } = excess[0]!.file!.getLineAndCharacterOfPosition(excess[0]!.start!);
    expect(ours).toMatchObject({
      code: "SCAFFOLD_OPERATION_REMOVED",
      line: line + 1,
      column: character + 1,
    });
  });

  it("reports a changed input or output type at the type, and keeps the method", () => {
    const renamed = { ...GET, inputType: "GetMessagesRequest", outputType: "MessageList" };
    const result = updateService(TEMPLATE, FILE, [api([renamed, DELETE])]);
    expect(result.text).toBe(TEMPLATE);
    expect(result.diagnostics).toEqual([
      {
        code: "SCAFFOLD_SIGNATURE_CHANGED",
        severity: "warning",
        message:
          "method getMessages of apiService: its input type is now GetMessagesRequest (was GetMessages); the method was kept as written",
        file: FILE,
        line: 14,
        column: 28,
      },
      {
        code: "SCAFFOLD_SIGNATURE_CHANGED",
        severity: "warning",
        message:
          "method getMessages of apiService: its output type is now MessageList (was ArrayOfMessagesInput | undefined); the method was kept as written",
        file: FILE,
        line: 14,
        column: 71,
      },
    ]);
  });

  it("ignores white space and the order of union members, and unannotated types", () => {
    // EDITED writes Promise< undefined|ArrayOfMessagesInput > and an unannotated context and
    // result.
    expect(updateService(EDITED, FILE, [api([GET, DELETE])]).diagnostics).toEqual([]);
    const changed = { ...DELETE, outputType: "boolean" };
    expect(updateService(EDITED, FILE, [api([GET, changed])]).diagnostics).toEqual([]);
    const arrow = { ...DELETE, inputType: "DeleteRequest" };
    const [d] = updateService(EDITED, FILE, [api([GET, arrow])]).diagnostics;
    expect(d).toMatchObject({ code: "SCAFFOLD_SIGNATURE_CHANGED", line: 17, column: 35 });
    expect(d!.message).toContain("its input type is now DeleteRequest (was DeleteMessage)");
  });

  it("says which object it expected when it finds none, and still updates the others", () => {
    const other: ServiceSpec = {
      objectName: "otherService",
      serviceName: "Other",
      methods: [SEND],
    };
    const result = updateService(TEMPLATE, FILE, [other, api([GET, DELETE])]);
    expect(result.text).toBe(TEMPLATE);
    expect(result.diagnostics).toEqual([
      {
        code: "SCAFFOLD_SERVICE_MISSING",
        severity: "error",
        message:
          "service Other: expected `export const otherService = { … }` (an object literal) in this file; its methods were neither checked nor added",
        file: FILE,
        line: 1,
        column: 1,
      },
    ]);
    const notLiteral = `export const otherService = makeService();\n`;
    expect(updateService(notLiteral, FILE, [other]).diagnostics[0]!.code).toBe(
      "SCAFFOLD_SERVICE_MISSING",
    );
  });
});

/** The compiler's diagnostics for one file on its own, with the standard library. */
function compile(text: string): readonly ts.Diagnostic[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts"],
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const name = "/virtual/service.ts";
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.ES2022, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (f, ...rest) => (f === name ? source : getSourceFile.call(host, f, ...rest));
  host.fileExists = (f) => f === name || fileExists.call(host, f);
  host.readFile = (f) => (f === name ? text : readFile.call(host, f));
  return ts.getPreEmitDiagnostics(ts.createProgram([name], options, host));
}

describe("a declaration the added methods need", () => {
  const answering: MethodSpec = {
    ...GET,
    text: `  async getMessages(input: GetMessages, context: ApiContext) {\n    return mocks.answer(ApiDesc, "getMessages", input);\n  }`,
    imports: [],
  };
  const fresh =
    `import { createMocks } from "${RUNTIME}";\n` +
    `import { ApiDesc } from "./generated/descriptors.js";\n\n` +
    `/** The mock's answers. */\nexport const mocks = createMocks({ services: [ApiDesc] });\n\n` +
    `export const apiService = {};\n`;

  it("is copied from the templates' file, with its doc and imports, when the file lacks it", () => {
    const text = `import type { ApiContext } from "${SDK}";\n\nexport const apiService = {};\n`;
    const r = updateService(text, FILE, [api([answering])], fresh);
    expect(r.changes).toContain("declared mocks");
    expect(r.text).toContain(
      "/** The mock's answers. */\nexport const mocks = createMocks({ services: [ApiDesc] });",
    );
    expect(r.text).toContain(`import { createMocks } from "${RUNTIME}";`);
  });

  it("is left to the user's own binding of the name: an import, a function", () => {
    for (const own of [`import { mocks } from "./mocks.js";\n`, `function mocks() {}\n`]) {
      const text = `${own}\nexport const apiService = {};\n`;
      const r = updateService(text, FILE, [api([answering])], fresh);
      expect(r.changes).not.toContain("declared mocks");
      expect(r.text).not.toContain("createMocks");
    }
  });
});

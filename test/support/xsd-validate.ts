/**
 * An independent check of the XML our runtime writes: the JDK's XML Schema validator (Xerces, in
 * xsd-validator/XsdValidate.java) validates messages against the schemas of the WSDL they were
 * written for. The round trip proves our writer and reader agree; this proves what the writer sends
 * is what the schema says, so that a mistake made alike on both sides cannot hide.
 */
import { execFile, spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { WireMessage } from "./round-trip.js";
import { ANY_NS } from "./sample-values.js";

const SOURCE = fileURLToPath(new URL("./xsd-validator/XsdValidate.java", import.meta.url));

/** Why the validator cannot run here (no JDK), or undefined. */
export function validatorMissing(): string | undefined {
  const ok = (cmd: string) =>
    spawnSync(cmd, ["-version"], { stdio: "ignore", timeout: 30_000 }).status === 0;
  return ok("java") && ok("javac")
    ? undefined
    : "no JDK (java and javac) on PATH: the schema validation of written messages is skipped";
}

let compiled: Promise<string> | undefined;
/** Compiles the validator once per process. */
function classes(): Promise<string> {
  compiled ??= new Promise((resolve, reject) => {
    const dir = mkdtempSync(path.join(tmpdir(), "xsd-validate-"));
    execFile(
      "javac",
      ["-nowarn", "-encoding", "UTF-8", "-d", dir, SOURCE],
      { timeout: 120_000 },
      (err, _out, stderr) => (err ? reject(new Error(`javac failed: ${stderr}`)) : resolve(dir)),
    );
  });
  return compiled;
}

export interface Verdict {
  readonly where: string;
  /** Elements validated in the message (0: nothing in it is declared by a schema, as an empty fault detail). */
  readonly elements: number;
  /** The validator's errors (its first fifty); empty when valid. */
  readonly errors: readonly string[];
}

/** The built-in types the generated code types as `string`, without checking their lexical rules (src/model/builtins.ts). */
const STRING_KINDS =
  "anyURI|QName|NCName|Name|NMTOKENS?|token|language|ID|IDREFS?|ENTITY|ENTITIES|NOTATION|normalizedString|duration|gYear|gYearMonth|gMonth|gMonthDay|gDay";
const VALUE_ONLY = [
  // Facets, which the round trip's values (support/sample-values.ts) break on purpose: awkward
  // strings (markup, CRLF, emoji) test escaping. The runtime's own samples meet facets and are
  // validated with nothing excused (runtime/samples-schema-valid.test.ts).
  /^cvc-(pattern|length|minLength|maxLength|minInclusive|maxInclusive|minExclusive|maxExclusive|totalDigits|fractionDigits)-valid/,
  new RegExp(`^cvc-datatype-valid\\.1\\.2\\.[13]: .* is not a valid value for '(${STRING_KINDS})'`),
  // A union's value is a string to the generated code: which member type it meets is not checked.
  /^cvc-datatype-valid\.1\.2\.3: .* is not a valid value of union type/,
  // xs:unique and xs:key across sample values that repeat one value.
  /^cvc-identity-constraint/,
  // A required xs:any left empty: the descriptors do not carry a wildcard's minOccurs, so neither the
  // runtime nor the sample values know it.
  /^cvc-complex-type\.2\.4\.b: .* One of '\{WC\[[^\]]*\]\}' is expected\.$/,
  // The samples' own xs:any content (an element `Extra` in ANY_NS), whatever the wildcard's namespace rule.
  new RegExp(`${ANY_NS.replace(/[.:-]/g, "\\$&")}|declaration can be found for element 'Extra'`),
];

/**
 * Whether the error at `index` of a message's `errors` can only come from the values sent, not from
 * how they were written: a facet (the round trip's values do not try to meet patterns, lengths or
 * ranges; the runtime's samples do), identity constraints, the values' own xs:any content; and the
 * companion error Xerces reports right after each of these (cvc-type.3.1.3, cvc-attribute.3,
 * cvc-complex-type.2.2: "the value … is not valid").
 */
export function valueOnly(errors: readonly string[], index: number): boolean {
  const text = errors[index]!.replace(/^[^:]*:\d+: /, "");
  if (VALUE_ONLY.some((re) => re.test(text))) return true;
  return (
    /^cvc-(type\.3\.1\.3|attribute\.3|complex-type\.2\.2)/.test(text) &&
    index > 0 &&
    valueOnly(errors, index - 1)
  );
}

/** Validates each message against the schemas of `wsdl`; throws when they do not compile. */
export async function validateMessages(
  wsdl: string,
  messages: readonly WireMessage[],
): Promise<Verdict[]> {
  const dir = await classes();
  const child = spawn("java", ["-Dfile.encoding=UTF-8", "-cp", dir, "XsdValidate", wsdl], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  const done = new Promise<number | null>((resolve) => child.on("close", resolve));
  // Framed as the validator reads them: "@@ <bytes> <mode> <label>" and the bytes.
  for (const [i, m] of messages.entries()) {
    const bytes = Buffer.from(m.xml, "utf8");
    child.stdin.write(`@@ ${bytes.length} ${m.mode} ${i}\n`);
    child.stdin.write(bytes);
  }
  child.stdin.end();
  const code = await done;
  const lines = stdout.split("\n").filter((l) => l !== "");
  if (code !== 0)
    throw new Error(
      `the validator exited ${code}: ${lines.find((l) => l.startsWith("SCHEMA\t")) ?? stderr.slice(0, 2000)}`,
    );
  const verdicts = lines.map((line): Verdict => {
    const [label, what, ...errors] = line.split("\t");
    return {
      where: messages[Number(label)]!.where,
      elements: what === "INVALID" ? 0 : Number.parseInt(what!, 10),
      errors,
    };
  });
  if (verdicts.length !== messages.length)
    throw new Error(
      `the validator answered ${verdicts.length} of ${messages.length} messages: ${stderr.slice(0, 2000)}`,
    );
  return verdicts;
}

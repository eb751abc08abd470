/**
 * What a forger without a key can make the verifier spend (issue 42, R1): the worst 1 MiB signed
 * messages we could construct, each carrying the trusted (public) certificate and a signature
 * value that does not match, beside an honest signed message of the same size, in CPU time per
 * verification. The forms: the R1 attack (foreign elements and thousands of PrefixList prefixes in
 * SignedInfo), the largest SignedInfo the limits allow (30 references, 64-prefix lists, 64
 * namespaces in scope) reaching the signature check, a Body of elements each declaring a
 * namespace, and one element declaring tens of thousands (the XML reader's worst).
 */
import { envelope } from "@wsdl-tsgen/runtime/internal";
import { readTree, signEnvelope, signer, Verifier } from "@wsdl-tsgen/runtime/wss";

type Signer = ReturnType<typeof signer>;
import { fmt, median, ratio } from "./util.js";

const MIB = 1 << 20;
const NS = "http://api.example.com/messages/";
const EXC = "http://www.w3.org/2001/10/xml-exc-c14n#";

/** CPU microseconds per call of `f`, the median of `rounds` batches of `n`. */
function cpuMicros(f: () => void, n: number, rounds: number): number {
  const per: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const before = process.cpuUsage();
    for (let i = 0; i < n; i++) f();
    const used = process.cpuUsage(before);
    per.push((used.user + used.system) / n);
  }
  return median(per);
}

/** A GetMessages request whose Body holds `inner` `count` times (padding to a size). */
const request = (inner: string, count: number, rootDecls = ""): string =>
  envelope(
    "1.1",
    `<GetMessages xmlns="${NS}"><email>a</email><password>b</password>${inner.repeat(count)}</GetMessages>`,
  ).replace("<soap:Envelope ", `<soap:Envelope${rootDecls} `);

/** `xml` padded to 1 MiB by repeating `unit` where `at` is (a sized guess, then exact). */
function toMiB(make: (count: number) => string, unit: number): string {
  const base = make(0).length;
  return make(Math.max(0, Math.floor((MIB - base) / unit)));
}

/** A signature value that does not match: the forger has no key. */
const forged = (xml: string): string =>
  xml.replace(
    /(<ds:SignatureValue>)([A-Za-z])/,
    (_m, tag: string, c: string) => tag + (c === "A" ? "B" : "A"),
  );

const prefixList = (n: number): string => Array.from({ length: n }, (_, i) => `p${i}`).join(" ");
const inclusive = (n: number): string =>
  `<ec:InclusiveNamespaces xmlns:ec="${EXC}" PrefixList="${prefixList(n)}"/>`;
const declarations = (n: number): string =>
  Array.from({ length: n }, (_, i) => ` xmlns:p${i}="urn:p${i}"`).join("");

/** The R1 attack: foreign elements and a PrefixList of thousands of prefixes in SignedInfo. */
function r1Attack(s: Signer): string {
  const signed = signEnvelope(request("", 0), s);
  const withList = signed.replace(
    "></ds:CanonicalizationMethod>",
    `>${inclusive(5000)}</ds:CanonicalizationMethod>`,
  );
  const pad = `<x:pad xmlns:x="urn:x"/>`;
  return forged(
    toMiB(
      (n) => withList.replace("</ds:SignatureMethod>", `</ds:SignatureMethod>${pad.repeat(n)}`),
      pad.length,
    ),
  );
}

/**
 * The most SignedInfo the limits let through to the signature check: 30 references to the Body,
 * each with a 64-prefix list, the CanonicalizationMethod's too, 64 namespaces in scope, and a Body
 * padded with text to 1 MiB.
 */
function largestAllowed(s: Signer): string {
  const text = `<Note>${"x".repeat(1000)}</Note>`;
  const signed = signEnvelope(
    toMiB((n) => request(text, n, declarations(64)), text.length),
    s,
  );
  const ref = /<ds:Reference URI="#Body.*?<\/ds:Reference>/.exec(signed)![0];
  const listed = ref.replace("></ds:Transform>", `>${inclusive(64)}</ds:Transform>`);
  const refs = listed.repeat(30);
  const info = /<ds:SignedInfo>.*<\/ds:SignedInfo>/.exec(signed)![0];
  const method = /<ds:SignatureMethod .*?<\/ds:SignatureMethod>/.exec(info)![0];
  const c14n = `<ds:CanonicalizationMethod Algorithm="${EXC}">${inclusive(64)}</ds:CanonicalizationMethod>`;
  return forged(signed.replace(info, `<ds:SignedInfo>${c14n}${method}${refs}</ds:SignedInfo>`));
}

/** A Body of small elements each declaring a namespace of its own: the tree's costliest form. */
function declaringBody(s: Signer): string {
  const unit = `<q:m xmlns:q="urn:q" xmlns:r="urn:r" r:a="1">t</q:m>`;
  // Under the tree's 100,000-element limit.
  return forged(
    signEnvelope(
      toMiB((n) => request(unit, Math.min(n, 90_000)), unit.length),
      s,
    ),
  );
}

/** One Body element declaring namespaces to 1 MiB: the XML reader's costliest form we found. */
function manyDeclarations(s: Signer): string {
  const decl = (i: number): string => ` xmlns:p${i}="urn:p${i}"`;
  const make = (n: number): string =>
    request(`<Note${Array.from({ length: n }, (_, i) => decl(i)).join("")}/>`, 1);
  return forged(signEnvelope(toMiB(make, decl(10_000).length), s));
}

export function hostileBench(keys: { key: string; cert: string }, allRounds: number): void {
  // Each form costs up to a second a round on a shared machine: three rounds show the medians.
  const rounds = Math.min(allRounds, 3);
  const s = signer(keys);
  const message = `<Messages><Id>1</Id><Sender>+15550100</Sender><MessageText>Hello</MessageText></Messages>`;
  const honest = signEnvelope(
    toMiB((n) => request(message, n), message.length),
    s,
  );
  const verifier = new Verifier({ trust: [keys.cert], checks: { replay: false } });
  verifier.verify(honest);
  const forms: [string, string][] = [
    ["R1 attack (foreign elements, 5,000-prefix list)", r1Attack(s)],
    ["largest SignedInfo allowed, bad signature", largestAllowed(s)],
    ["Body of namespace-declaring elements, bad signature", declaringBody(s)],
    ["one element declaring ~40,000 namespaces, bad signature", manyDeclarations(s)],
  ];
  const base = cpuMicros(() => verifier.verify(honest), 2, rounds);
  console.log(
    `  a keyless forger's worst 1 MiB message against the verifier, CPU per verification (median of ${rounds}):`,
  );
  const honestRead = cpuMicros(() => readTree(honest), 2, rounds);
  console.log(
    `    honest signed message (${fmt(honest.length / 1024, 0)} KiB), verified in ${fmt(base / 1000, 2)} ms; reading its XML into a tree alone ${fmt(honestRead / 1000, 2)} ms`,
  );
  for (const [name, xml] of forms) {
    let reason = "accepted";
    const once = (): void => {
      try {
        verifier.verify(xml);
      } catch (e) {
        reason = `${(e as { reason?: string }).reason ?? "error"}: ${(e as Error).message}`;
      }
    };
    const t = cpuMicros(once, 2, rounds);
    // What reading its XML alone costs: the floor any request of that size pays, signed or not.
    const read = cpuMicros(() => readTree(xml), 2, rounds);
    console.log(`    ${name} (${fmt(xml.length / 1024, 0)} KiB)`);
    console.log(
      `      refused (${reason}) in ${fmt(t / 1000, 2)} ms   ${ratio(t, base)} the honest one; reading its XML into a tree alone ${fmt(read / 1000, 2)} ms`,
    );
  }
}

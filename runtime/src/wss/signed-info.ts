/**
 * SignedInfo read strictly, before any canonicalization or cryptography: only what its schema
 * (XML Signature 1.0, 4.3) allows, in its order, and within Apache Santuario's secure-validation
 * limits (30 references, 5 transforms per reference). Anything else is refused, so that the
 * canonicalization of SignedInfo, made before the signature value is checked and so open to anyone
 * holding the (public) certificate, costs a bounded amount whatever the message holds.
 */
import { SecurityRefusal } from "../soap/message-security.js";
import { DS_NS, EXC_C14N } from "./algorithms.js";
import { attrValue, elementsOf, textOf, type SigElement } from "./tree.js";

/** Santuario's secure validation: references per SignedInfo, transforms per reference. */
export const MAX_REFERENCES = 30;
export const MAX_TRANSFORMS = 5;
/** Prefixes in one InclusiveNamespaces PrefixList, and its length in characters. */
export const MAX_PREFIXES = 64;
export const MAX_PREFIX_LIST_LENGTH = 2048;
/**
 * The most elements a SignedInfo within these limits holds: CanonicalizationMethod and
 * SignatureMethod with an InclusiveNamespaces, and per reference itself, Transforms, DigestMethod,
 * DigestValue and each transform with an InclusiveNamespaces. Enforced as the tree is read.
 */
export const MAX_SIGNED_INFO_ELEMENTS = 3 + MAX_REFERENCES * (4 + 2 * MAX_TRANSFORMS);
/** A DigestValue's length without white space: SHA-512's is 88 base64 characters. */
const MAX_DIGEST_VALUE = 128;

/** A transform of a reference: its algorithm and, for exclusive C14N, its PrefixList. */
export interface TransformRead {
  readonly algorithm: string | undefined;
  readonly prefixes: ReadonlySet<string>;
}

/** A ds:Reference as written: its URI, transforms, digest method and value (white space gone). */
export interface ReferenceRead {
  readonly uri: string | undefined;
  readonly transforms: readonly TransformRead[];
  readonly digestMethod: string | undefined;
  readonly digestValue: string;
}

export interface SignedInfoRead {
  readonly canonicalization: TransformRead;
  readonly signatureMethod: string | undefined;
  readonly references: readonly ReferenceRead[];
}

const refuse = (message: string): never => {
  throw new SecurityRefusal(message, "malformed");
};

/** The unqualified attributes each element of SignedInfo may have (none qualified). */
const ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  SignedInfo: ["Id"],
  CanonicalizationMethod: ["Algorithm"],
  SignatureMethod: ["Algorithm"],
  Reference: ["Id", "URI", "Type"],
  Transforms: [],
  Transform: ["Algorithm"],
  DigestMethod: ["Algorithm"],
  DigestValue: [],
  InclusiveNamespaces: ["PrefixList"],
};

/** The ds:SignedInfo `si`, read; a "malformed" refusal for anything its schema does not allow. */
export function readSignedInfo(si: SigElement): SignedInfoRead {
  const [c14n, method, ...refs] = checked(si, "SignedInfo");
  if (!c14n || !isDs(c14n, "CanonicalizationMethod") || !method || !isDs(method, "SignatureMethod"))
    refuse("the SignedInfo does not begin with its CanonicalizationMethod and SignatureMethod");
  // Named and counted before any reference is read: a million of them cost a comparison each.
  if (!refs.every((r) => isDs(r, "Reference"))) refuseElement();
  if (refs.length > MAX_REFERENCES) refuse("the signature has too many references");
  if (refs.length === 0) refuse("the signature has no references");
  if (checked(method!, "SignatureMethod").length > 0) refuseElement();
  return {
    canonicalization: transform(c14n!, "CanonicalizationMethod"),
    signatureMethod: attrValue(method!, "", "Algorithm"),
    references: refs.map(reference),
  };
}

/** Transforms?, DigestMethod, DigestValue, in that order. */
function reference(ref: SigElement): ReferenceRead {
  const kids = checked(ref, "Reference");
  const list = kids[0] && isDs(kids[0], "Transforms") ? kids.shift()! : undefined;
  const [digestMethod, digestValue, ...rest] = kids;
  if (!digestMethod || !isDs(digestMethod, "DigestMethod"))
    refuse("a reference has no DigestMethod");
  if (!digestValue || !isDs(digestValue, "DigestValue")) refuse("a reference has no DigestValue");
  if (rest.length > 0 || checked(digestMethod!, "DigestMethod").length > 0) refuseElement();
  if (checked(digestValue!, "DigestValue", true).length > 0) refuseElement();
  const value = textOf(digestValue!).replace(/\s+/g, "");
  if (value.length > MAX_DIGEST_VALUE) refuse("a DigestValue is too long");
  return {
    uri: attrValue(ref, "", "URI"),
    transforms: list ? transforms(list) : [],
    digestMethod: attrValue(digestMethod!, "", "Algorithm"),
    digestValue: value,
  };
}

function transforms(list: SigElement): TransformRead[] {
  const kids = checked(list, "Transforms");
  if (kids.length > MAX_TRANSFORMS) refuse("a reference has too many transforms");
  if (kids.length === 0) refuse("a reference has an empty Transforms");
  return kids.map((t) => (isDs(t, "Transform") ? transform(t, "Transform") : refuseElement()));
}

/** A CanonicalizationMethod or Transform: its algorithm, and at most one InclusiveNamespaces. */
function transform(el: SigElement, local: string): TransformRead {
  const kids = checked(el, local);
  const inc = kids[0];
  if (kids.length > 1 || (inc && (inc.ns !== EXC_C14N || inc.local !== "InclusiveNamespaces")))
    refuseElement();
  if (inc && checked(inc, "InclusiveNamespaces").length > 0) refuseElement();
  const list = inc && attrValue(inc, "", "PrefixList");
  return { algorithm: attrValue(el, "", "Algorithm"), prefixes: prefixSet(list ?? "") };
}

/**
 * A PrefixList read once into a set: duplicates count once, and a list longer than any signer
 * writes is refused rather than read.
 */
export function prefixSet(list: string): ReadonlySet<string> {
  if (list.length > MAX_PREFIX_LIST_LENGTH)
    refuse("the InclusiveNamespaces PrefixList is too long");
  const set = new Set<string>();
  for (const p of list.split(/[ \t\n\r]+/)) if (p !== "") set.add(p);
  if (set.size > MAX_PREFIXES) refuse("the InclusiveNamespaces PrefixList names too many prefixes");
  return set;
}

/**
 * The child elements of `el` (an element of SignedInfo named `local`), after checking that it has
 * only the attributes its schema allows and no text but white space (unless `text`).
 */
function checked(el: SigElement, local: string, text = false): SigElement[] {
  const allowed = ATTRIBUTES[local] ?? [];
  for (const a of el.attrs)
    if (a.uri !== "" || !allowed.includes(a.local))
      refuse(`the signature's ${local} has an attribute its schema does not allow`);
  if (!text)
    for (const c of el.children)
      if (typeof c === "string" && !/^[ \t\n\r]*$/.test(c))
        refuse(`the signature's ${local} holds text its schema does not allow`);
  return elementsOf(el);
}

const isDs = (el: SigElement, local: string): boolean => el.ns === DS_NS && el.local === local;

const refuseElement = (): never =>
  refuse("the SignedInfo holds an element its schema does not allow");

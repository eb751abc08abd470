/** The token handler that builds typed values while the tokenizer reads. */
import type { TokenHandler, XmlTag } from "./tokens.js";
import type { ArrayDesc, ComplexDesc, FieldDesc, ScalarDesc } from "../descriptors/types.js";
import { textBetween, type Source } from "./chars.js";
import { valueInSource } from "./decode-leaf.js";
import { keepUndescribed } from "./undescribed.js";
import { F } from "./decode-frame.js";
import { XmlDecodeError } from "./decode-options.js";
import { FrameStack } from "./decode-stack.js";
import {
  anyTypeValue,
  convert,
  emptyText,
  finishComplex,
  isEncodedArray,
  isNil,
  matchField,
  plainAttr,
  readAnyAttrs,
  readAttrs,
  refuseUnplaced,
  scalarValue,
  setField,
  treeNode,
  xsiTypeOf,
} from "./decode-values.js";
import { clark, type XmlNode } from "../support/xml-node.js";
import { XOP_NS } from "./namespaces.js";

const onlyXmlSpace = (t: string): boolean => /^[ \t\r\n]*$/.test(t);

/** The token handler that builds typed values: one frame per open element. */
export class Decoder extends FrameStack implements TokenHandler {
  open(tag: XmlTag): void {
    this.at = tag.offset;
    if (++this.elements > this.limits.maxElements)
      throw new XmlDecodeError(`more than ${this.limits.maxElements} elements`, "limit");
    if (this.stack.length + this.skip >= this.limits.maxDepth)
      throw new XmlDecodeError(
        `element nesting deeper than ${this.limits.maxDepth} levels`,
        "limit",
      );
    if (this.skip > 0) {
      this.skip++;
      return;
    }
    this.target = undefined;
    if (this.top.kind === F.Scalar && this.xop !== undefined && tag.uri === XOP_NS)
      return this.include(tag);
    const field = this.waitedFor(tag) ?? this.childOf(tag);
    if (field === null) return;
    if (field === undefined || this.full(field)) return this.undescribed(tag, field);
    if (this.multiRefs && tag.attributes.length > 0 && this.target === undefined)
      if (this.multiRef(tag, field)) return;
    this.enter(tag, field);
  }

  /**
   * An `xop:Include` in a base64Binary element: the element's value is the part its href names.
   * The Include's own children (extensions, by XOP) are skipped.
   */
  private include(tag: XmlTag): void {
    const top = this.top;
    const desc = top.desc;
    const name = top.name;
    if (tag.local !== "Include" || desc?.k !== "scalar" || desc.s !== "base64Binary" || desc.list)
      throw new XmlDecodeError(
        `element ${clark(tag.uri, tag.local)} is not allowed in ${name}: only a base64Binary value may be an xop:Include`,
        "invalid",
        name,
      );
    if (top.value !== undefined || !onlyXmlSpace(top.text))
      throw new XmlDecodeError(`element ${name} holds more than its xop:Include`, "invalid", name);
    top.value = this.xop!.include(plainAttr(tag, "href") ?? "");
    this.skip = 1;
  }

  /**
   * The field a child element of the open frame is, undefined when it describes none; null when
   * the element is taken care of already (a raw tree, a structural frame, skipped).
   */
  private childOf(tag: XmlTag): FieldDesc | undefined | null {
    const ns = tag.uri;
    const local = tag.local;
    switch (this.top.kind) {
      case F.Complex: {
        const cd = this.top.desc as ComplexDesc;
        const field = matchField(this.top, cd, ns, local);
        if (!field && cd.any) {
          // xs:any: keep the element as a raw tree.
          const node = treeNode(tag, ns, local);
          const obj = this.top.value as Record<string, unknown>;
          ((obj["$any"] ??= []) as XmlNode[]).push(node);
          this.push(F.Tree, undefined, undefined, undefined, false, local, node, undefined);
          return null;
        }
        return field;
      }
      case F.Array: {
        const array = this.top.desc as ArrayDesc;
        // A SOAP-encoded array's items may have any name (`<item>`, `<Item>`, …).
        if (array.encoded || (array.item.name === local && array.item.ns === ns)) return array.item;
        return undefined;
      }
      case F.Tree:
      case F.AnyType: {
        const node = treeNode(tag, ns, local);
        this.top.node!.children.push(node);
        this.push(F.Tree, undefined, undefined, undefined, false, local, node, undefined);
        return null;
      }
      case F.Custom: {
        const c = this.top.custom!.child(ns, local, tag);
        if (c === "skip") this.skip = 1;
        else if (c === "tree") {
          const node = treeNode(tag, ns, local);
          this.push(F.Tree, undefined, undefined, node, false, local, node, undefined);
        } else if ("child" in c)
          this.push(F.Custom, undefined, undefined, undefined, false, local, undefined, c);
        else return c;
        return null;
      }
      default:
        return undefined;
    }
  }

  /** Opens the frame of a typed element. */
  private enter(tag: XmlTag, field: FieldDesc): void {
    const local = tag.local;
    let desc = field.type;
    if (tag.attributes.length > 0 && (isEncodedArray(desc) || isEncodedArray(this.top.desc)))
      refuseUnplaced(tag);
    const nil = tag.attributes.length > 0 && isNil(tag);
    let kind = F.Scalar;
    let value: unknown;
    if (nil) kind = F.Skip;
    else if (desc.k === "complex") {
      kind = F.Complex;
      const obj: Record<string, unknown> = {};
      if (desc.family) {
        // A derived type stands where its base is declared: xsi:type says which.
        if (tag.attributes.length > 0) desc = xsiTypeOf(desc, tag);
        obj["$type"] = desc.family!.tag;
      }
      // A member of a substitution group in its head's place: which element it was.
      if (field.substituteOf !== undefined) obj["$element"] = field.name;
      if (desc.attrs.length > 0) readAttrs(desc, tag, obj, local);
      if (desc.anyAttrs) readAnyAttrs(desc, tag, obj);
      value = obj;
    } else if (desc.k === "array") {
      kind = F.Array;
      value = [];
    } else if (desc.s === "anyType" && !desc.list) {
      // xs:anyType: read whole, as a tree; plain text comes back as a string (see anyTypeValue).
      const node = treeNode(tag, tag.uri, local);
      this.push(F.AnyType, desc, field, undefined, false, local, node, undefined);
      return;
    }
    this.push(kind, desc, field, value, nil, local, undefined, undefined);
  }

  /**
   * An element the schema does not describe here (`field` undefined) or one too many: kept as a
   * raw tree on the value it stands in, or refused. Inside a simple value there is nowhere to keep
   * it.
   */
  private undescribed(tag: XmlTag, field: FieldDesc | undefined): void {
    const top = this.top;
    const name = clark(tag.uri, tag.local);
    const holder = top.kind === F.Complex || top.kind === F.Array ? top.value : undefined;
    if (this.refuse || holder === undefined) {
      const why = !field
        ? "is not allowed in"
        : field.max <= 1
          ? "occurs more than once in"
          : `occurs more than ${field.max} times in`;
      throw new XmlDecodeError(`element ${name} ${why} ${top.name}`, "invalid", tag.local);
    }
    const node = treeNode(tag, tag.uri, tag.local);
    keepUndescribed(holder as object, node);
    this.push(F.Tree, undefined, undefined, undefined, false, tag.local, node, undefined);
  }

  close(): void {
    if (this.skip > 0) {
      this.skip--;
      return;
    }
    const frame = this.top;
    this.at = frame.at;
    const parent = this.stack.pop();
    if (!parent) return;
    this.top = parent;
    if (this.stack.length === 0 && this.refs.size > 0) this.unresolved();
    let value: unknown;
    switch (frame.kind) {
      case F.Skip:
        value = null;
        if (frame.field && !frame.field.nillable && this.strict) {
          throw new XmlDecodeError(
            `element ${frame.name} is marked xsi:nil but is not nillable`,
            "invalid",
            frame.name,
          );
        }
        break;
      case F.Scalar:
        if (frame.value === undefined) value = convert(frame, this.strict);
        else if (onlyXmlSpace(frame.text)) value = frame.value;
        else
          throw new XmlDecodeError(
            `element ${frame.name} holds more than its xop:Include`,
            "invalid",
            frame.name,
          );
        break;
      case F.Complex:
        value = finishComplex(frame, this.strict);
        break;
      case F.Array:
        value = frame.value;
        break;
      case F.Tree:
        if (parent.kind !== F.Custom) return;
        parent.custom!.done(frame.node!.ns, frame.node!.local, frame.node, undefined);
        return;
      case F.Custom:
        value = undefined;
        break;
      case F.AnyType:
        value = anyTypeValue(frame.node!);
        break;
    }
    const f = frame.field;
    if (frame.ref !== undefined) this.resolve(frame.ref, value);
    else if (parent.kind === F.Complex) {
      setField(parent.value as Record<string, unknown>, f!, value);
    } else if (parent.kind === F.Array) {
      (parent.value as unknown[]).push(value);
    } else if (parent.kind === F.Custom) {
      parent.custom!.done(f?.ns ?? "", frame.name, value, f);
    }
  }

  text(t: string): void {
    if (this.skip > 0) return;
    if (this.top.kind === F.Tree || this.top.kind === F.AnyType) {
      // Raw trees keep text where it stands among the children (mixed content).
      const children = this.top.node!.children;
      const last = children.length - 1;
      if (last >= 0 && typeof children[last] === "string") children[last] += t;
      else children.push(t);
    } else if (
      this.top.kind === F.Scalar ||
      (this.top.kind === F.Complex && (this.top.desc as ComplexDesc).text)
    )
      this.top.text += t;
  }

  /**
   * An element holding only text (`start .. end` of `src`): read at once when it is a scalar child
   * of a typed object or array (most elements are), else as open, text and close. An int or a
   * boolean is read in the source, with no string made of it (see decode-leaf.ts).
   */
  leafRange(tag: XmlTag, src: Source, start: number, end: number): void {
    const field =
      this.skip === 0 && tag.attributes.length === 0 ? this.scalarChild(tag) : undefined;
    const desc = field?.type as ScalarDesc | undefined;
    let value: unknown = desc === undefined ? undefined : valueInSource(desc, src, start, end);
    // Read first, as the tokenizer reads every text: a syntax error in it comes before the rest.
    const text = value === undefined && start < end ? textBetween(src, start, end) : "";
    if (field === undefined) {
      this.open(tag);
      if (text !== "") this.text(text);
      this.close();
      return;
    }
    this.at = tag.offset;
    if (++this.elements > this.limits.maxElements)
      throw new XmlDecodeError(`more than ${this.limits.maxElements} elements`, "limit");
    if (this.stack.length >= this.limits.maxDepth)
      throw new XmlDecodeError(
        `element nesting deeper than ${this.limits.maxDepth} levels`,
        "limit",
      );
    value ??= scalarValue(desc!, text === "" ? emptyText(field) : text, tag.local, this.strict);
    if (this.top.kind === F.Complex)
      setField(this.top.value as Record<string, unknown>, field, value);
    else (this.top.value as unknown[]).push(value);
  }

  /** The scalar field a leaf child of the open object or array is, read at once (see leafRange). */
  private scalarChild(tag: XmlTag): FieldDesc | undefined {
    let field: FieldDesc | undefined;
    if (this.top.kind === F.Complex)
      field = matchField(this.top, this.top.desc as ComplexDesc, tag.uri, tag.local);
    else if (this.top.kind === F.Array) {
      const array = this.top.desc as ArrayDesc;
      if (array.encoded || (array.item.name === tag.local && array.item.ns === tag.uri))
        field = array.item;
    }
    const desc = field?.type;
    return desc !== undefined &&
      desc.k === "scalar" &&
      desc.s !== "anyType" &&
      field!.substituteOf === undefined &&
      !this.full(field!)
      ? field
      : undefined;
  }
}

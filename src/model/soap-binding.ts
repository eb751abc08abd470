/**
 * The SOAP 1.1 and 1.2 binding reader: a binding operation's soap:body, soap:header and faults,
 * and the logical operation a SOAP binding declares (its typed input and result), for services.ts.
 */
import type {
  RawBinding,
  RawBindingIO,
  RawBindingOperation,
  RawMessage,
  RawPart,
  RawPortTypeOperation,
} from "../parse/wsdl.js";
import type {
  ComplexType,
  DeclaredFault,
  ElementDecl,
  ElementField,
  Mutable,
  AttachmentPart,
  Operation,
  OperationResult,
  SoapBindingOperation,
  SoapBodyShape,
  SoapProtocol,
} from "./model.js";
import { syntheticField, syntheticType } from "./fields.js";
import { recovery } from "../recovery.js";
import { soapBody } from "./rules/message-parts.js";
import { BindingReader, EXPECTED } from "./binding-common.js";
import { attachmentParts, unlikeAttachments } from "./attachments.js";

/** Reads SOAP binding operations (see BindingReader for what it shares with HTTP's reader). */
export class SoapBindingReader extends BindingReader {
  private bodyParts(
    msg: RawMessage | undefined,
    io: RawBindingIO | undefined,
    attached: readonly AttachmentPart[],
  ): RawPart[] {
    if (!msg) return [];
    const headerParts = new Set(
      (io?.soapHeaders ?? []).filter((h) => h.message.local === msg.name).map((h) => h.part),
    );
    for (const a of attached) headerParts.add(a.name);
    const listed = io?.soapBody?.parts;
    for (const name of listed ?? []) {
      if (msg.parts.some((p) => p.name === name)) continue;
      const parts = msg.parts.map((p) => p.name).join(", ") || "none";
      this.diagnostics.add(
        recovery(
          "WSDL_UNRESOLVED",
          `soap:body parts names ${name}, which message ${msg.name} has no part of; ` +
            `expected one of its parts (${parts}); it is left out`,
          io?.loc ?? msg.loc,
        ),
      );
    }
    return msg.parts.filter((p) => (listed ? listed.includes(p.name) : !headerParts.has(p.name)));
  }

  soapOperation(
    raw: RawBinding,
    bop: RawBindingOperation,
    pop: RawPortTypeOperation,
    protocol: SoapProtocol,
  ): SoapBindingOperation {
    const style = bop.style ?? raw.style ?? "document";
    const inMsg = pop.input && this.message(pop.input.message, pop.input.loc, bop.name);
    const outMsg = pop.output && this.message(pop.output.message, pop.output.loc, bop.name);
    const bodyNs = bop.input?.soapBody?.namespace ?? this.defs.targetNamespace;
    const attachments = {
      input: attachmentParts(inMsg, bop.input, this.diagnostics),
      output: attachmentParts(outMsg, bop.output, this.diagnostics),
    };
    const soapInput = soapBody(
      style,
      this.bodyParts(inMsg, bop.input, attachments.input),
      { ns: bodyNs, local: bop.name },
      this,
    );
    const soapOutput = pop.output
      ? soapBody(
          style,
          this.bodyParts(outMsg, bop.output, attachments.output),
          { ns: bop.output?.soapBody?.namespace ?? bodyNs, local: `${bop.name}Response` },
          this,
        )
      : undefined;
    const attached = attachments.input.length + attachments.output.length > 0;
    const operation = this.logical(bop.name, pop, () => ({
      ...this.soapLogical(bop.name, pop, soapInput, soapOutput, attachments.output.length > 0),
      ...(attached && { attachments }),
    }));
    unlikeAttachments(operation, attached ? attachments : undefined, bop, this.diagnostics);
    const enc = (io: RawBindingIO | undefined) => ({
      kind: "soapBody" as const,
      use: io?.soapBody?.use ?? "literal",
      namespace: io?.soapBody?.namespace,
    });
    const faults: DeclaredFault[] = [];
    for (const f of pop.faults) {
      const name = f.name ?? f.message.local;
      const message = this.idx.messages.resolve(
        f.message,
        f.loc,
        this.diagnostics,
        EXPECTED,
        `fault ${name} of ${bop.name} is left out (it arrives as an untyped SoapFault)`,
      )?.value;
      if (!message) continue;
      const part = message.parts[0];
      const element = part?.element && this.schemas.element(part.element, part.loc);
      if (element) faults.push({ kind: "fault", name, element });
      else
        this.diagnostics.warn(
          "WSDL_FAULT_UNTYPED",
          `fault ${name} of ${bop.name}: message ${message.name} has ` +
            `${part ? `part ${part.name} without element=` : "no part"}; ` +
            "expected one part with element=; it arrives as an untyped SoapFault",
          f.loc,
        );
    }
    return {
      kind: "bindingOperation",
      protocol,
      inputHeaders: this.headers(bop, "input"),
      outputHeaders: this.headers(bop, "output"),
      operation,
      soapAction: bop.soapAction,
      style,
      inputEncoding: enc(bop.input),
      outputEncoding: pop.output ? enc(bop.output) : { kind: "none" },
      soapInput,
      soapOutput,
      hasOutput: pop.output !== undefined,
      faults,
      ...(attached && { attachments }),
    };
  }

  /**
   * The elements of the input's or output's `soap:header`s. A header is an optional extra: one
   * whose message, part or element is not declared, or whose part uses `type=`, is left out with a
   * warning.
   */
  private headers(bop: RawBindingOperation, direction: "input" | "output"): ElementDecl[] {
    const out: ElementDecl[] = [];
    for (const h of bop[direction]?.soapHeaders ?? []) {
      // A defect of the input (what it names is declared nowhere) is a recovery, which strict
      // refuses, reported as every unresolved reference is; a part with type= is valid WSDL this
      // generator does not read as a header.
      const where = `soap:header ${h.message.local}/${h.part} of ${bop.name}`;
      const msg = this.idx.messages.resolve(
        h.message,
        h.loc,
        this.diagnostics,
        EXPECTED,
        `${where} is left out`,
      )?.value;
      if (!msg) continue;
      const part = msg.parts.find((p) => p.name === h.part);
      if (!part) {
        this.diagnostics.add(
          recovery(
            "WSDL_UNRESOLVED",
            `${where}: message ${msg.name} has no part ${h.part}; the header is left out`,
            h.loc,
          ),
        );
        continue;
      }
      if (!part.element) {
        this.diagnostics.warn(
          "WSDL_HEADER_SKIPPED",
          `${where}: part ${h.part} uses type=; expected element= (a header entry is an element); the header is left out`,
          h.loc,
        );
        continue;
      }
      const element = this.schemas.resolveElement(part.element, h.loc, `${where} is left out`);
      if (!element) continue;
      if (!out.includes(element)) out.push(element);
    }
    return out;
  }

  private soapLogical(
    name: string,
    pop: RawPortTypeOperation,
    input: SoapBodyShape,
    output: SoapBodyShape | undefined,
    outputAttached: boolean,
  ): Mutable<Operation> {
    const synthetic = (fields: readonly ElementField[], hint: string): ComplexType => {
      const t = syntheticType(fields, pop.loc);
      this.schemas.nameHints.set(t, hint);
      return t;
    };
    const inputType = (shape: SoapBodyShape, hint = `${name}Request`): ComplexType => {
      if (shape.kind === "empty") return synthetic([], hint);
      if (shape.kind === "rpc" || shape.kind === "parts") return synthetic(shape.parts, hint);
      const t = shape.element.type;
      if (t.kind === "complex") return t;
      return synthetic(
        [
          syntheticField(shape.element.name, t, shape.element.loc, {
            nillable: shape.element.nillable,
          }),
        ],
        hint,
      );
    };
    const resultOf = (shape: SoapBodyShape | undefined): OperationResult => {
      // Attachments are properties of the result, so it stays an object.
      if (outputAttached)
        return { kind: "object", type: inputType(shape ?? { kind: "empty" }, `${name}Result`) };
      if (!shape || shape.kind === "empty") return { kind: "void" };
      if (shape.kind === "rpc") {
        if (shape.parts.length === 0) return { kind: "void" };
        if (shape.parts.length === 1) return { kind: "unwrapped", field: shape.parts[0]! };
        return { kind: "object", type: synthetic(shape.parts, `${name}Result`) };
      }
      if (shape.kind === "parts")
        return { kind: "object", type: synthetic(shape.parts, `${name}Result`) };
      const t = shape.element.type;
      if (t.kind !== "complex") {
        return {
          kind: "unwrapped",
          field: syntheticField(shape.element.name, t, shape.element.loc, {
            nillable: shape.element.nillable,
          }),
        };
      }
      const plain =
        !t.base &&
        t.attributes.length === 0 &&
        !t.simpleContent &&
        !t.anyElements &&
        !t.anyAttributes;
      const wrapped = input.kind === "element" && input.element.name.local === name;
      if (plain && t.fields.length === 0) return { kind: "void" };
      if (plain && wrapped && t.fields.length === 1)
        return { kind: "unwrapped", field: t.fields[0]! };
      return { kind: "object", type: t };
    };
    return {
      kind: "operation",
      name,
      doc: pop.doc,
      input: inputType(input),
      result: resultOf(output),
      oneWay: pop.output === undefined,
      loc: pop.loc,
    };
  }
}

/** The port, operation and fault descriptors of descriptors.ts. */
import type {
  BindingOperation,
  HttpBindingOperation,
  SoapBindingOperation,
  ElementDecl,
  Operation,
  OperationResult,
  Service,
  SoapBodyShape,
} from "../../model/model.js";
import { isSoapProtocol } from "../../model/protocols.js";
import { collectFields } from "../../transform/names.js";
import { listKey, type ListKind } from "../../transform/shared-lists.js";
import { array, arrow, call, cat, object, typeArgs, type Code, type Statement } from "../code.js";
import { symbol } from "../generated-file.js";
import { objectKey } from "../../names/identifiers.js";
import { headerTypes } from "../type-expressions.js";
import { nsRef, rt, rtType, type EmitContext } from "../context.js";
import {
  elementDeclCall,
  elementFieldCall,
  fieldOf,
  nsTemplate,
  type Props,
} from "./emit-descriptors.js";
import { simpleDescExpr } from "./scalar-descriptors.js";
import { soapFlags, usesEncoding } from "./soap-operation-flags.js";

function soapBody(
  ctx: EmitContext,
  shape: SoapBodyShape | undefined,
  op: Operation,
  direction: "request" | "response",
): Code {
  if (!shape || shape.kind === "empty") return "undefined";
  const props: Props = [];
  if (shape.kind === "element") {
    props.push(["element", elementDeclCall(ctx, shape.element)]);
    if (direction === "request" && op.input !== shape.element.type) {
      const prop = ctx.plan.names.propIfNamed(op.input.fields[0]!) ?? shape.element.name.local;
      props.push(["prop", JSON.stringify(prop)]);
    }
  } else if (shape.kind === "parts") {
    // Several body elements, no wrapper: the typed input or result type lists them; the first
    // routes.
    const type =
      direction === "request" ? op.input : op.result.kind === "object" ? op.result.type : undefined;
    if (type)
      props.push(
        ["element", elementFieldCall(ctx, type.fields[0]!, true)],
        ["parts", ctx.plan.names.type(type).descriptor],
      );
  } else {
    const fields = array(shape.parts.map((p) => elementFieldCall(ctx, p, true)));
    const wrapper = JSON.stringify(shape.wrapper.local);
    const type = call(rt(ctx, "complex"), wrapper, arrow("()", fields));
    props.push(["element", fieldOf(ctx, shape.wrapper.ns, wrapper, type)]);
  }
  if (direction === "response") props.push(...resultProps(ctx, shape, op.result));
  return bodyInit(props);
}

/** A body's descriptor: only its element's field when that is all it says (`BodyInit`). */
const bodyInit = (props: Props): Code =>
  props.length === 1 && props[0]![0] === "element" ? props[0]![1] : object(props);

/** A SOAP response's `void`, or the `prop` its typed result is read from. */
function resultProps(ctx: EmitContext, shape: SoapBodyShape, r: OperationResult): Props {
  if (r.kind === "void") return [["void", "true"]];
  if (r.kind !== "unwrapped") return [];
  const owner = shape.kind === "element" ? shape.element.type : undefined;
  const inOwner = owner?.kind === "complex" && collectFields(owner).fields.includes(r.field);
  // A wrapper that is a plain array (its one repeated field) decodes to the result itself: no prop.
  const arrayWrapper = owner?.kind === "complex" && ctx.plan.arrayItems.get(owner) === r.field;
  if (inOwner && !arrayWrapper)
    return [["prop", JSON.stringify(ctx.plan.names.propIfNamed(r.field) ?? r.field.name.local)]];
  if (shape.kind === "rpc") return [["prop", JSON.stringify(r.field.name.local)]];
  return [];
}

/**
 * The properties of the service's header bag that an operation's request (`headers`) and response
 * (`responseHeaders`) carry.
 */
function headerProps(
  ctx: EmitContext,
  s: Service,
  bop: SoapBindingOperation,
  lists: SharedLists,
): Props {
  const bag = s.soapHeaders;
  if (!bag) return [];
  const props = (elements: readonly ElementDecl[]) =>
    array(
      elements.map((e) => {
        const f = bag.fields.find((x) => x.name.ns === e.name.ns && x.name.local === e.name.local)!;
        return JSON.stringify(ctx.plan.names.propIfNamed(f) ?? f.name.local);
      }),
    );
  const out: Props = [];
  if (bop.inputHeaders.length > 0)
    out.push(["headers", lists.ref("Headers", bop.inputHeaders, props)]);
  if (bop.outputHeaders.length > 0)
    out.push(["responseHeaders", lists.ref("ResponseHeaders", bop.outputHeaders, props)]);
  return out;
}

/**
 * The header and fault lists of one service's operations: a list several operations declare is a
 * const of its own (declared before the service's descriptor, in order of first use).
 */
class SharedLists {
  private readonly used = new Map<string, Code>();
  constructor(
    private readonly ctx: EmitContext,
    private readonly s: Service,
  ) {}
  /** The list, or the name of the const that shares it. */
  ref(kind: ListKind, elements: readonly ElementDecl[], list: (e: typeof elements) => Code): Code {
    const name = this.ctx.plan.names.sharedList(this.s, listKey(kind, elements));
    if (name === undefined) return list(elements);
    if (!this.used.has(name)) this.used.set(name, list(elements));
    return name;
  }
  consts(): Statement[] {
    return [...this.used].map(([name, list]) => ({ code: cat(`const ${name} = `, list, ";") }));
  }
}

/**
 * The HTTP response descriptor's flags for the typed result: void, the `prop` it is read from when
 * the response document is the SOAP response's wrapper (as spyne's HTTP bindings answer), or else
 * what a nil document reads as (BodyDesc.nil).
 */
function httpResultFlags(ctx: EmitContext, element: ElementDecl, r: OperationResult): Props {
  const props = resultProps(ctx, { kind: "element", element }, r);
  if (props.length > 0 || r.kind !== "unwrapped") return props;
  if (r.field.maxOccurs > 1) return [["nil", '"empty"']];
  return r.field.nillable ? [["nil", '"null"']] : [];
}

function operationDesc(
  ctx: EmitContext,
  s: Service,
  bop: BindingOperation,
  lists: SharedLists,
): Code {
  switch (bop.protocol) {
    case "soap11":
    case "soap12":
      return soapOperationDesc(ctx, s, bop, lists);
    case "httpGet":
    case "httpPost":
      return httpOperationDesc(ctx, bop);
  }
}

function soapOperationDesc(
  ctx: EmitContext,
  s: Service,
  bop: SoapBindingOperation,
  lists: SharedLists,
): Code {
  const op = bop.operation;
  const action = bop.soapAction === undefined ? "undefined" : nsTemplate(ctx, bop.soapAction);
  const props: Props = [
    ["action", action],
    ["request", soapBody(ctx, bop.soapInput, op, "request")],
    ["response", bop.hasOutput ? soapBody(ctx, bop.soapOutput, op, "response") : "undefined"],
  ];
  props.push(...soapFlags(bop));
  if (bop.faults.length) {
    const faults = (elements: readonly ElementDecl[]) =>
      array(elements.map((e) => ctx.plan.names.fault(e).descriptor));
    const elements = bop.faults.map((f) => f.element);
    props.push(["faults", lists.ref("Faults", elements, faults)]);
  }
  return object([...props, ...headerProps(ctx, s, bop, lists)]);
}

function httpOperationDesc(ctx: EmitContext, bop: HttpBindingOperation): Code {
  const op = bop.operation;
  const params = bop.httpParameters.map((p) => {
    const t = p.field.type;
    const scalarKind =
      t.kind === "builtin" ? t.scalar : t.kind === "simple" ? t.base.scalar : "string";
    const required = p.field.minOccurs > 0 || scalarKind === "string";
    const prop = ctx.plan.names.propIfNamed(p.field) ?? p.field.name.local;
    const options: [string, Code][] = [];
    if (prop !== p.name) options.push(["prop", JSON.stringify(prop)]);
    if (!required) options.push(["required", "false"]);
    if (p.field.maxOccurs > 1) options.push(["repeated", "true"]);
    const args = [JSON.stringify(p.name), simpleDescExpr(ctx, t)];
    return call(rt(ctx, "param"), ...args, ...(options.length ? [object(options)] : []));
  });
  const response = bop.mimeXmlElement
    ? bodyInit([
        ["element", elementDeclCall(ctx, bop.mimeXmlElement, 0)],
        ...httpResultFlags(ctx, bop.mimeXmlElement, op.result),
      ])
    : "undefined";
  const props: Props = [["location", JSON.stringify(bop.location)]];
  if (bop.inputEncoding.kind === "urlReplacement") props.push(["replace", "true"]);
  props.push(["params", array(params)], ["response", response]);
  return object(props);
}

/**
 * `ServiceDesc<ApiOperations, ApiPortName>`: the descriptor's type carries the service's
 * operations, ports and SOAP header forms, which the client and server types are mapped from.
 */
function serviceDescType(ctx: EmitContext, s: Service): Code {
  const names = ctx.plan.names.service(s);
  const typed = { ...ctx, typesModule: "./types.js" };
  const fromTypes = (name: string) => ctx.file.use(symbol(name, "./types.js", true));
  const args: Code[] = [fromTypes(names.operations), fromTypes(names.portName)];
  if (s.soapHeaders)
    args.push(
      typeArgs(
        rtType(ctx, "SoapHeaderForms"),
        headerTypes(typed, s.soapHeaders, "output", "input"),
      ),
    );
  return typeArgs(rtType(ctx, "ServiceDesc"), args);
}

/**
 * The declarations of a service's descriptor: the header and fault lists its operations share,
 * its ports' operation tables (one for ports whose tables are equal), then the service's.
 */
export function serviceDescriptor(ctx: EmitContext, s: Service): Statement[] {
  const names = ctx.plan.names.service(s);
  const defaultPort = s.ports.find((p) => p.binding.protocol === "soap11") ?? s.ports[0];
  const tables = new Map<string, Table>();
  const lists = new SharedLists(ctx, s);
  const ports = s.ports.map((p): [string, Code] => {
    const ops = p.binding.operations.map((bop): [string, Code] => [
      objectKey(bop.operation.name),
      operationDesc(ctx, s, bop, lists),
    ]);
    const table = object(ops, true);
    const key = JSON.stringify(table);
    const soap = isSoapProtocol(p.binding.protocol);
    const known = tables.get(key) ?? {
      name: ctx.plan.names.portTable(s, p),
      ports: [],
      table,
      soap,
    };
    tables.set(key, { ...known, ports: [...known.ports, p.name] });
    const port: Props = [
      ["name", JSON.stringify(p.name)],
      ["protocol", JSON.stringify(p.binding.protocol)],
      ["address", JSON.stringify(p.address ?? "")],
      ["operations", known.name],
    ];
    if (p.binding.operations.some(usesEncoding)) port.push(["encoded", "true"]);
    if (p.binding.mtom) port.push(["mtom", "true"]);
    return [objectKey(p.name), object(port, true)];
  });
  const methods = s.operations.map((op): [string, Code] => [
    objectKey(ctx.plan.names.method(s, op.name)),
    JSON.stringify(op.name),
  ]);
  const desc: Props = [
    ["name", JSON.stringify(s.name)],
    ["targetNamespace", nsRef(ctx, s.targetNamespace)],
    ["defaultPort", JSON.stringify(defaultPort?.name ?? "")],
  ];
  if (s.soapHeaders) desc.push(["soapHeaders", ctx.plan.names.type(s.soapHeaders).descriptor]);
  desc.push(["methods", object(methods, true)], ["ports", object(ports, true)]);
  const type = serviceDescType(ctx, s);
  return [
    ...lists.consts(),
    ...tableConsts(ctx, tables),
    { code: cat(`export const ${names.descriptor}: `, type, " = ", object(desc, true), ";") },
  ];
}

/** A port's operation table, the const it is declared as, and the ports that use it. */
interface Table {
  readonly name: string;
  readonly ports: readonly string[];
  readonly table: Code;
  /** A SOAP port's table (`soapOperations`), else an HTTP one's (`httpOperations`). */
  readonly soap: boolean;
}

function tableConsts(ctx: EmitContext, tables: ReadonlyMap<string, Table>): Statement[] {
  return [...tables.values()].map(({ name, ports, table, soap }) => ({
    doc: `The operations of ${ports.length > 1 ? `ports ${ports.slice(0, -1).join(", ")} and ${ports.at(-1)!}` : `port ${ports[0]!}`}.`,
    code: cat(
      `const ${name} = `,
      call(rt(ctx, soap ? "soapOperations" : "httpOperations"), table),
      ";",
    ),
  }));
}

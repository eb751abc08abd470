/**
 * What the readers of the WSDL's dialects share: the messages, portTypes and bindings by QName, and
 * the logical operations of the service being read, which its SOAP bindings declare first and its
 * HTTP bindings link to (services.ts reads the ports, soap-binding.ts and http-binding.ts one
 * binding operation each).
 */
import type { DiagnosticBag, SourceLocation } from "../diagnostics.js";
import { qnameKey, type QName } from "../parse/qname.js";
import type {
  RawBinding,
  RawDefinitions,
  RawMessage,
  RawPortType,
  RawPortTypeOperation,
} from "../parse/wsdl.js";
import type { Mutable, Operation } from "./model.js";
import { ComponentIndex } from "./lenient.js";
import { recovery } from "../recovery.js";
import type { SchemaSet } from "./schema-set.js";
import type { PartContext } from "./rules/message-parts.js";

export interface Indexed {
  readonly messages: ComponentIndex<RawMessage>;
  readonly portTypes: ComponentIndex<RawPortType>;
  readonly bindings: ComponentIndex<RawBinding>;
}

/**
 * The messages, portTypes and bindings by QName. A name declared twice keeps its first declaration,
 * and so does an operation named twice in one portType or binding (WS-I Basic Profile R2304); each
 * other one is a located WSDL_DUPLICATE warning.
 */
export function index(definitions: readonly RawDefinitions[], diagnostics: DiagnosticBag): Indexed {
  const messages = new Map<string, RawMessage>();
  const portTypes = new Map<string, RawPortType>();
  const bindings = new Map<string, RawBinding>();
  const first = <T extends Named>(map: Map<string, T>, ns: string, what: string, item: T) => {
    const key = qnameKey({ ns, local: item.name });
    const kept = map.get(key);
    if (kept)
      diagnostics.add(duplicate(`${what} ${item.name}`, `in ${ns || "no namespace"}`, kept, item));
    else map.set(key, item);
  };
  for (const d of definitions) {
    const ns = d.targetNamespace;
    for (const m of d.messages) first(messages, ns, "message", m);
    for (const p of d.portTypes)
      first(portTypes, ns, "portType", { ...p, operations: distinct(p, "portType", diagnostics) });
    for (const b of d.bindings)
      first(bindings, ns, "binding", { ...b, operations: distinct(b, "binding", diagnostics) });
  }
  return {
    messages: new ComponentIndex(messages, "message", "WSDL"),
    portTypes: new ComponentIndex(portTypes, "portType", "WSDL"),
    bindings: new ComponentIndex(bindings, "binding", "WSDL"),
  };
}

export interface Named {
  readonly name: string;
  readonly loc: SourceLocation;
}

/** The operations of a portType or binding, the first of each name. */
function distinct<T extends Named>(
  owner: { readonly name: string; readonly operations: readonly T[] },
  what: string,
  diagnostics: DiagnosticBag,
): T[] {
  const kept = new Map<string, T>();
  for (const o of owner.operations) {
    const earlier = kept.get(o.name);
    if (earlier)
      diagnostics.add(duplicate(`operation ${o.name}`, `in ${what} ${owner.name}`, earlier, o));
    else kept.set(o.name, o);
  }
  return [...kept.values()];
}

export const duplicate = (what: string, where: string, kept: Named, again: Named) =>
  recovery(
    "WSDL_DUPLICATE",
    `${what} is declared twice ${where}; expected one declaration of each name (WS-I Basic Profile R2304); the first (line ${kept.loc.line}) is read, this one is left out`,
    again.loc,
  );

export const EXPECTED = "expected a declaration in this WSDL or one it imports";

/** The logical operations of one service, in the order first declared by any of its bindings. */
export class LogicalOperations {
  private readonly byName = new Map<string, Mutable<Operation>>();
  private readonly order: string[] = [];

  /** The operation `name`, created by `create` when no binding has declared it yet. */
  get(name: string, create: () => Mutable<Operation>): Operation {
    let op = this.byName.get(name);
    if (!op) {
      op = create();
      this.byName.set(name, op);
      this.order.push(name);
    }
    return op;
  }

  all(): Mutable<Operation>[] {
    return this.order.map((n) => this.byName.get(n)!);
  }
}

/** A reader of one WSDL dialect's binding operations, within one service of one definitions. */
export class BindingReader implements PartContext {
  constructor(
    protected readonly idx: Indexed,
    readonly schemas: SchemaSet,
    readonly diagnostics: DiagnosticBag,
    protected readonly defs: RawDefinitions,
    private readonly operations: LogicalOperations,
  ) {}

  /**
   * The input or output message `name` of an operation. Declared nowhere: undefined, read as a
   * message without parts (the operation stays callable; a missing output makes its result void).
   */
  protected message(name: QName, at: SourceLocation, operation: string): RawMessage | undefined {
    return this.idx.messages.resolve(
      name,
      at,
      this.diagnostics,
      EXPECTED,
      `reading it as a message without parts, so ${operation} sends or receives an empty body there`,
    )?.value;
  }

  /** The logical operation `name`, declared by this binding when it is the first to name it. */
  protected logical(
    name: string,
    _pop: RawPortTypeOperation,
    create: () => Mutable<Operation>,
  ): Operation {
    return this.operations.get(name, create);
  }
}

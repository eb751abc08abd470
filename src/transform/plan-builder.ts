/**
 * The plan as its passes fill it in: an empty PlanBuilder, and its names kept by node (PlanNames in
 * plan.ts), each read of a name the plan lacks throwing an internal error that names the node, so
 * that a defect of naming shows where it is.
 */
import { qnameKey } from "../parse/qname.js";
import type {
  ComplexType,
  ElementDecl,
  Port,
  Service,
  SimpleType,
  WsdlModel,
} from "../model/model.js";
import type {
  FaultNames,
  NameBuilder,
  PlanBuilder,
  Property,
  ServiceNames,
  TypeNames,
} from "./plan.js";

export function emptyPlan(
  model: WsdlModel,
  nameHints: ReadonlyMap<ComplexType | SimpleType, string>,
  pinnedNamespaces: ReadonlyMap<string, string> = new Map(),
): PlanBuilder {
  return {
    model,
    nameHints,
    arrayItems: new Map(),
    xsiTypes: new Map(),
    hasInputForm: new Set(),
    namespaces: new Map(),
    names: new NameTable(),
    pinnedNamespaces,
  };
}

/** A node as an internal error names it: its kind, its name, where it is declared. */
function described(node: {
  readonly kind: string;
  readonly name?: { readonly ns: string; readonly local: string } | string | undefined;
  readonly loc?: { readonly file: string; readonly line: number } | undefined;
}): string {
  const n = node.name;
  const name = n === undefined ? "(anonymous)" : typeof n === "string" ? n : qnameKey(n);
  const at = node.loc ? ` at ${node.loc.file}:${node.loc.line}` : "";
  return `${node.kind} ${name}${at}`;
}

/** The read of a name the plan lacks: a defect of the generator. */
function missing(what: string, node: string): never {
  throw new Error(`internal error: the plan has no ${what} for ${node}`);
}

export class NameTable implements NameBuilder {
  private readonly typeNames = new Map<ComplexType | SimpleType, TypeNames>();
  private readonly serviceNames = new Map<Service, ServiceNames>();
  private readonly props = new Map<Property, string>();
  private readonly faultNames = new Map<ElementDecl, FaultNames>();
  private readonly tables = new Map<Service, Map<Port, string>>();
  private readonly lists = new Map<Service, Map<string, string>>();
  /** The maps of `s` in `maps`, made for a service that has its names (set before its tables). */
  private ofService<K>(maps: Map<Service, Map<K, string>>, s: Service): Map<K, string> {
    this.service(s);
    const made = maps.get(s) ?? new Map<K, string>();
    maps.set(s, made);
    return made;
  }

  get types(): ReadonlyMap<ComplexType | SimpleType, TypeNames> {
    return this.typeNames;
  }

  get services(): ReadonlyMap<Service, ServiceNames> {
    return this.serviceNames;
  }

  get faults(): ReadonlyMap<ElementDecl, FaultNames> {
    return this.faultNames;
  }

  type(t: ComplexType | SimpleType): TypeNames {
    return this.typeNames.get(t) ?? missing("type name", described(t));
  }

  typeIfNamed(t: ComplexType | SimpleType): TypeNames | undefined {
    return this.typeNames.get(t);
  }

  service(s: Service): ServiceNames {
    return this.serviceNames.get(s) ?? missing("names", `service ${s.name}`);
  }

  method(s: Service, operation: string): string {
    return (
      this.service(s).methods.get(operation) ??
      missing("method name", `operation ${operation} of service ${s.name}`)
    );
  }

  portTable(s: Service, p: Port): string {
    return this.tables.get(s)?.get(p) ?? missing("operation table", `port ${p.name} of ${s.name}`);
  }

  sharedList(s: Service, key: string): string | undefined {
    return this.lists.get(s)?.get(key);
  }

  prop(x: Property): string {
    return this.props.get(x) ?? missing("property name", described(x));
  }

  propIfNamed(x: Property): string | undefined {
    return this.props.get(x);
  }

  fault(e: ElementDecl): FaultNames {
    return this.faultNames.get(e) ?? missing("fault class", described(e));
  }

  setType(t: ComplexType | SimpleType, names: TypeNames): void {
    this.typeNames.set(t, names);
  }

  setService(s: Service, names: ServiceNames): void {
    this.serviceNames.set(s, names);
  }

  setProp(x: Property, name: string): void {
    this.props.set(x, name);
  }

  setFault(e: ElementDecl, names: FaultNames): void {
    this.faultNames.set(e, names);
  }

  setPortTable(s: Service, p: Port, name: string): void {
    this.ofService(this.tables, s).set(p, name);
  }

  setSharedList(s: Service, key: string, name: string): void {
    this.ofService(this.lists, s).set(key, name);
  }
}

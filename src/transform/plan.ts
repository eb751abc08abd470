/**
 * The emit plan: decisions made about the model before any code is printed (names, which types
 * are plain arrays, which need an input variant). Filled by the passes in `passes.ts` through a
 * PlanBuilder; the emitters read it as an EmitPlan, its names through the accessors of PlanNames.
 */
import type {
  AttributeField,
  ComplexType,
  ElementDecl,
  ElementField,
  Operation,
  OrderedList,
  Port,
  QName,
  Service,
  SimpleType,
  WsdlModel,
} from "../model/model.js";

export interface TypeNames {
  /** The declaration in types.ts (the decoded, output form). */
  readonly type: string;
  /** The input form's name: differs from `type` when the type holds dates or bigints. */
  readonly input: string;
  /** The codec descriptor's const name in descriptors.ts. */
  readonly descriptor: string;
  /**
   * For a type that others extend: the union of it (unless abstract) and every type derived from
   * it, which is what a property declared with this type holds (output and input forms).
   */
  readonly family?: { readonly type: string; readonly input: string };
}

export interface ServiceNames {
  readonly client: string;
  readonly clientOptions: string;
  readonly portName: string;
  /** The interface of the service's operations by method name, in types.ts. */
  readonly operations: string;
  readonly serviceInterface: string;
  /** The implementation of only some operations (`ApiPartialService`), in server.ts. */
  readonly partialService: string;
  /** The request context an implementation's methods receive (`ApiContext`), in server.ts. */
  readonly context: string;
  readonly handlerFactory: string;
  readonly handlerOptions: string;
  readonly descriptor: string;
  /** camelCase method name per operation name (read through PlanNames.method). */
  readonly methods: ReadonlyMap<string, string>;
}

/** The generated fault class of a fault element. */
export interface FaultNames {
  readonly className: string;
  readonly descriptor: string;
  readonly faultName: string;
}

/** What has a property name: an element field, an attribute, an ordered list. */
export type Property = ElementField | AttributeField | OrderedList;

/**
 * The names of the plan, as the emitters read them: a name the plan should hold and does not is a
 * defect of the generator, thrown as an internal error that names the node (where a `Map`'s
 * `get(x)!` gave `undefined` far from its cause).
 */
export interface PlanNames {
  /** The names of a type in use. */
  type(t: ComplexType | SimpleType): TypeNames;
  /** The names of `t`, or undefined when it is not in use. */
  typeIfNamed(t: ComplexType | SimpleType): TypeNames | undefined;
  service(s: Service): ServiceNames;
  /** The method of the operation named `operation` of `s`. */
  method(s: Service, operation: string): string;
  /**
   * The const of the operation table of port `p` of `s` in descriptors.ts (ports with equal tables
   * share the first's).
   */
  portTable(s: Service, p: Port): string;
  /** The const of a header or fault list several operations of `s` share, by `listKey`; or none. */
  sharedList(s: Service, key: string): string | undefined;
  /** The property of a field or attribute of a type in use, or of an ordered list. */
  prop(x: Property): string;
  /** The property of `x`, or undefined for one no type in use declares (a message part's). */
  propIfNamed(x: Property): string | undefined;
  /** The fault class of a fault element. */
  fault(e: ElementDecl): FaultNames;
  /** Every named type, service and fault, in the order named. */
  readonly types: ReadonlyMap<ComplexType | SimpleType, TypeNames>;
  readonly services: ReadonlyMap<Service, ServiceNames>;
  readonly faults: ReadonlyMap<ElementDecl, FaultNames>;
}

/** The names as the naming pass fills them in, each once. */
export interface NameBuilder extends PlanNames {
  setType(t: ComplexType | SimpleType, names: TypeNames): void;
  setService(s: Service, names: ServiceNames): void;
  setProp(x: Property, name: string): void;
  setFault(e: ElementDecl, names: FaultNames): void;
  setPortTable(s: Service, p: Port, name: string): void;
  setSharedList(s: Service, key: string, name: string): void;
}

export interface EmitPlan {
  readonly model: WsdlModel;
  readonly nameHints: ReadonlyMap<ComplexType | SimpleType, string>;
  /** ASMX-style `ArrayOfX` types: their one repeated field, which is the array's item. */
  readonly arrayItems: ReadonlyMap<ComplexType, ElementField>;
  /** SOAP encoding: the fields written with `xsi:type`, and the type each names. */
  readonly xsiTypes: ReadonlyMap<ElementField, QName>;
  /** Types whose input form differs from their output form. */
  readonly hasInputForm: ReadonlySet<ComplexType | SimpleType>;
  /** Namespace URIs in order of first use, with the const name each gets in descriptors.ts. */
  readonly namespaces: ReadonlyMap<string, string>;
  /**
   * The names of types, services, faults and properties (element fields and attributes of each
   * complex type, de-clashed, and ordered lists; an element of an ordered list has its items'
   * `$choice`).
   */
  readonly names: PlanNames;
  /** Namespace constant names pinned by the user (`namespaceNames` option). */
  readonly pinnedNamespaces: ReadonlyMap<string, string>;
}

/** The plan as its passes fill it in (plan.ts's emitters read it as an EmitPlan). */
export interface PlanBuilder extends EmitPlan {
  readonly arrayItems: Map<ComplexType, ElementField>;
  readonly xsiTypes: Map<ElementField, QName>;
  readonly hasInputForm: Set<ComplexType | SimpleType>;
  readonly namespaces: Map<string, string>;
  readonly names: NameBuilder;
}

export type Pass = { readonly name: string; run(plan: PlanBuilder): void };

export type { Operation };

/**
 * The emit plan: decisions made about the model before any code is printed (names, which types
 * are plain arrays, which need an input variant). Filled by the passes in `passes.ts`.
 */
import type {
  ComplexType,
  ElementDecl,
  ElementField,
  Operation,
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
  /** camelCase method name per operation name. */
  readonly methods: ReadonlyMap<string, string>;
  /**
   * The const of each port's operation table in descriptors.ts (ports with equal tables share the
   * first's).
   */
  readonly portTables: ReadonlyMap<Port, string>;
  /** The const of each header or fault list that several operations share, by `listKey`. */
  readonly sharedLists: ReadonlyMap<string, string>;
}

export interface EmitPlan {
  readonly model: WsdlModel;
  readonly nameHints: ReadonlyMap<ComplexType | SimpleType, string>;
  /** ASMX-style `ArrayOfX` types: their one repeated field, which is the array's item. */
  readonly arrayItems: Map<ComplexType, ElementField>;
  /** SOAP encoding: the fields written with `xsi:type`, and the type each names. */
  readonly xsiTypes: Map<ElementField, QName>;
  /** Types whose input form differs from their output form. */
  readonly hasInputForm: Set<ComplexType | SimpleType>;
  readonly typeNames: Map<ComplexType | SimpleType, TypeNames>;
  readonly serviceNames: Map<Service, ServiceNames>;
  /** Namespace URIs in order of first use, with the const name each gets in descriptors.ts. */
  readonly namespaces: Map<string, string>;
  /**
   * Property name per element field / attribute of each complex type (local names, de-clashed), and
   * per ordered list; an element of an ordered list has its items' `$choice` here.
   */
  readonly propNames: Map<object, string>;
  /** One generated fault class per fault element: its class and descriptor names. */
  readonly faultClasses: Map<
    ElementDecl,
    { readonly className: string; readonly descriptor: string; readonly faultName: string }
  >;
  /** Namespace constant names pinned by the user (`namespaceNames` option). */
  readonly pinnedNamespaces: ReadonlyMap<string, string>;
}

export function emptyPlan(
  model: WsdlModel,
  nameHints: ReadonlyMap<ComplexType | SimpleType, string>,
  pinnedNamespaces: ReadonlyMap<string, string> = new Map(),
): EmitPlan {
  return {
    model,
    nameHints,
    arrayItems: new Map(),
    xsiTypes: new Map(),
    hasInputForm: new Set(),
    typeNames: new Map(),
    serviceNames: new Map(),
    namespaces: new Map(),
    propNames: new Map(),
    pinnedNamespaces,
    faultClasses: new Map(),
  };
}

export type Pass = { readonly name: string; run(plan: EmitPlan): void };

export type { Operation };

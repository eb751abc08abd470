import { methodIdentifier, NameScope, typeIdentifier } from "../names/identifiers.js";
import { concreteMembers } from "./families.js";
import { inFamily } from "../model/value-shapes.js";
import type { OrderedList, Service } from "../model/model.js";
import { operationLists } from "./shared-lists.js";
import { ifSoap } from "../model/protocols.js";
import type { NameBuilder, Pass, PlanBuilder } from "./plan.js";

/**
 * What descriptors.ts calls its type-only import of types.ts: `ComplexDesc<t.Campaign>`. One
 * letter, as the import line states what it is: Bing's 1,400 references to its types would cost
 * 5.6 kB more as `types.`, past its size budget (descriptor-size.test.ts).
 */
export const TYPES_NAMESPACE = "t";

/**
 * The names descriptors.ts declares for itself: `const field = fieldsIn(NS)`, and types.ts as `t`.
 */
export const DESCRIPTORS_OWN_NAMES: readonly string[] = ["field", TYPES_NAMESPACE];

/** Runtime names index.ts re-exports (types, then values): generated names must not take them. */
export const INDEX_RUNTIME_TYPES = [
  "CallOptions",
  "XsdDateInput",
  "XsdDateTimeInput",
  "XsdTimeInput",
  "SoapFaultInit",
] as const;
export const INDEX_RUNTIME_VALUES = [
  "HttpBindingError",
  "OperationUnavailableError",
  "ResponseFormatError",
  "SoapFault",
  "StreamedResultError",
  "TransportError",
  "XsdDate",
  "XsdDateTime",
  "XsdTime",
  "undescribedOf",
] as const;

/**
 * Gives every declared type, descriptor, service and operation its TypeScript name. Names come from
 * XML local names only (never from namespace URIs), so a namespace change renames nothing; clashes
 * are settled in model order, which is document order.
 */
export const names: Pass = {
  name: "names",
  run(plan) {
    // One scope for types.ts declarations, one for descriptors.ts consts; the client, server and
    // index files import from both, so service-level names are claimed in the type scope too.
    // The binary forms types.ts may import (binary-forms.ts) are reserved there too.
    const types = new NameScope([
      ...INDEX_RUNTIME_TYPES,
      ...INDEX_RUNTIME_VALUES,
      "ReceivedBinary",
      "SentBinary",
    ]);
    // Namespace constants come first: pinned names, then NS, NS2, … in order of first use.
    // `field` is descriptors.ts's own (`const field = fieldsIn(NS)`), and `t` its import of
    // types.ts.
    const descriptors = new NameScope([
      ...plan.pinnedNamespaces.values(),
      ...DESCRIPTORS_OWN_NAMES,
    ]);
    namespaceNames(plan);
    for (const ns of plan.namespaces.values()) if (!descriptors.has(ns)) descriptors.claim(ns);
    typeNames(plan, types, descriptors);
    familyNames(plan, types);
    for (const s of plan.model.services) serviceNames(plan, s, types, descriptors);
    for (const s of plan.model.services) serverNames(plan, s, types);
    faultNames(plan, types, descriptors);
    propertyNames(plan);
    // Last, so that no name claimed before moves: the consts that make descriptors.ts smaller.
    for (const s of plan.model.services) tableNames(s, plan.names, descriptors);
  },
};

/** The namespace constants, in order of first use: pinned names, then NS, NS2, … */
function namespaceNames(plan: PlanBuilder): void {
  const nsScope = new NameScope(plan.pinnedNamespaces.values());
  const addNs = (ns: string) => {
    if (ns === "" || plan.namespaces.has(ns)) return;
    const pinned = plan.pinnedNamespaces.get(ns);
    const name =
      pinned ?? nsScope.claim(plan.namespaces.size === 0 ? "NS" : `NS${plan.namespaces.size + 1}`);
    plan.namespaces.set(ns, name);
  };
  addNs(plan.model.targetNamespace);
  for (const t of plan.model.types) {
    if (t.kind !== "complex") continue;
    for (const f of t.fields) addNs(f.name.ns);
    for (const f of t.fields) for (const m of f.substitutes?.members ?? []) addNs(m.name.ns);
    for (const a of t.attributes) addNs(a.name.ns);
  }
  for (const e of plan.model.elements) addNs(e.name.ns);
  for (const s of plan.model.services)
    for (const op of s.operations)
      if (op.result.kind === "unwrapped") addNs(op.result.field.name.ns);
  // The namespaces of types written as xsi:type.
  for (const t of plan.model.types)
    if (t.kind === "complex" && t.name && inFamily(t)) addNs(t.name.ns);
}

/** Each type's name, its input form's and its descriptor's. */
function typeNames(plan: PlanBuilder, types: NameScope, descriptors: NameScope): void {
  for (const t of plan.model.types) {
    const hint = t.name?.local ?? plan.nameHints.get(t) ?? "Anonymous";
    const type = types.claim(typeIdentifier(hint));
    const input = plan.hasInputForm.has(t) ? types.claim(`${type}Input`) : type;
    plan.names.setType(t, { type, input, descriptor: descriptors.claim(type) });
  }
}

/**
 * Family unions, once every member has its name: `AOrDerived` (and its input form when a member has
 * one).
 */
function familyNames(plan: PlanBuilder, types: NameScope): void {
  for (const t of plan.model.types) {
    if (t.kind !== "complex" || t.derived.length === 0) continue;
    const names = plan.names.type(t);
    const family = types.claim(`${names.type}OrDerived`);
    const input = concreteMembers(t).some((m) => plan.hasInputForm.has(m))
      ? types.claim(`${family}Input`)
      : family;
    plan.names.setType(t, { ...names, family: { type: family, input } });
  }
}

/** The words a generated name ends with: none is written twice in a row. */
export const SUFFIX_WORDS = [
  "Service",
  "Client",
  "Handler",
  "Port",
  "Desc",
  "Context",
  "Options",
  "Operations",
] as const;

const DOUBLED = new RegExp(`(${SUFFIX_WORDS.join("|")})(?:\\1)+(?![a-z])`, "g");

/**
 * A generated name from its parts without a stutter: a suffix word twice in a row is written once
 * (`CampaignManagementService` + `Service` is `CampaignManagementService`, and JAX-WS's
 * `EchoServiceService` + `Client` is `EchoServiceClient`). Not a word inside another
 * (`PortPortal` stays).
 */
export function joinName(...parts: string[]): string {
  return parts.join("").replace(DOUBLED, "$1");
}

/** A service's client, interface, handler and descriptor names, and its methods'. */
function serviceNames(
  plan: PlanBuilder,
  s: Service,
  types: NameScope,
  descriptors: NameScope,
): void {
  const base = typeIdentifier(s.name);
  const methods = new Map<string, string>();
  // `port` and `stream` (the streaming twins) are the client's own properties.
  const methodScope = new NameScope(["constructor", "port", "stream"]);
  for (const op of s.operations) methods.set(op.name, methodScope.claim(methodIdentifier(op.name)));
  plan.names.setService(s, {
    client: types.claim(joinName(base, "Client")),
    clientOptions: types.claim(joinName(base, "ClientOptions")),
    portName: types.claim(joinName(base, "PortName")),
    operations: types.claim(joinName(base, "Operations")),
    serviceInterface: types.claim(joinName(base, "Service")),
    // Claimed by serverNames once every service has these, so that adding them moved none.
    partialService: "",
    context: "",
    handlerFactory: types.claim(joinName("create", base, "Handler")),
    handlerOptions: types.claim(joinName(base, "HandlerOptions")),
    descriptor: descriptors.claim(joinName(base, "Desc")),
    methods,
  });
}

/**
 * The server's partial implementation and context type names (`ApiPartialService`, `ApiContext`),
 * claimed after every service's other names: they came later, and no name before them moves.
 */
function serverNames(plan: PlanBuilder, s: Service, types: NameScope): void {
  const names = plan.names.service(s);
  const base = typeIdentifier(s.name);
  plan.names.setService(s, {
    ...names,
    partialService: types.claim(joinName(base, "PartialService")),
    context: types.claim(joinName(base, "Context")),
  });
}

/** Fault classes: one per fault element, named after the first wsdl:fault that uses it. */
function faultNames(plan: PlanBuilder, types: NameScope, descriptors: NameScope): void {
  for (const s of plan.model.services)
    for (const p of s.ports)
      for (const bop of p.binding.operations)
        for (const f of ifSoap(bop)?.faults ?? []) {
          if (plan.names.faults.has(f.element)) continue;
          const base = typeIdentifier(f.name);
          const className = types.claim(base.endsWith("Fault") ? base : `${base}Fault`);
          plan.names.setFault(f.element, {
            className,
            descriptor: descriptors.claim(joinName(className, "Desc")),
            faultName: f.name,
          });
        }
}

/**
 * Property names: XML local names unchanged; a clash inside one type gets a suffix. An ordered
 * list is one property, `Items`, claimed where its first element stands (so that a type extending
 * another names the inherited list as the base does); its elements' names are their items'
 * `$choice`, unique within the list.
 */
function propertyNames(plan: PlanBuilder): void {
  for (const t of plan.model.types) {
    if (t.kind !== "complex") continue;
    const props = new NameScope(["$type", "$value", "$any", "$attributes"]);
    const all = collectFields(t);
    const lists = new Map<OrderedList, NameScope>();
    for (const f of all.fields) {
      const wanted = f.propertyName ?? f.name.local;
      if (f.ordered === undefined) {
        plan.names.setProp(f, props.claim(wanted));
        continue;
      }
      let tags = lists.get(f.ordered);
      if (tags === undefined) {
        lists.set(f.ordered, (tags = new NameScope()));
        plan.names.setProp(f.ordered, props.claim(ORDERED_LIST_PROPERTY));
      }
      plan.names.setProp(f, tags.claim(wanted));
    }
    for (const a of all.attributes)
      plan.names.setProp(
        a,
        props.has(a.name.local)
          ? props.claim(`${a.name.local}Attribute`)
          : props.claim(a.name.local),
      );
  }
}

/** The property of an ordered list (ordered-lists.ts), as svcutil names it. */
export const ORDERED_LIST_PROPERTY = "Items";

/**
 * Claims a const per port's operation table, and one per header or fault list that several
 * operations of the service share.
 */
function tableNames(s: Service, names: NameBuilder, scope: NameScope): void {
  for (const p of s.ports)
    names.setPortTable(s, p, scope.claim(joinName(typeIdentifier(p.name), "Operations")));
  const users = new Map<string, Set<string>>();
  for (const p of s.ports)
    for (const bop of p.binding.operations)
      for (const key of operationLists(bop))
        users.set(key, (users.get(key) ?? new Set()).add(bop.operation.name));
  for (const [key, ops] of users)
    if (ops.size > 1)
      names.setSharedList(s, key, scope.claim(LIST_CONSTS[key.slice(0, key.indexOf(" "))]!));
}

/**
 * Local consts of descriptors.ts, named after the operation property they fill, so that operations
 * name them in shorthand (`headers,`).
 */
const LIST_CONSTS: Record<string, string> = {
  Headers: "headers",
  ResponseHeaders: "responseHeaders",
  Faults: "faults",
};

import type { AttributeField, ComplexType, ElementField } from "../model/model.js";

/** A complex type and the types it extends, base first. */
export function collectHierarchy(t: ComplexType): ComplexType[] {
  // Chains are short: a list checked in place costs less than a Set, and push then reverse less
  // than unshift.
  const chain: ComplexType[] = [];
  for (let c: ComplexType | undefined = t; c && !chain.includes(c); c = c.base) chain.push(c);
  return chain.reverse();
}

/** A complex type's fields and attributes including inherited ones, base first (wire order). */
export function collectFields(t: ComplexType): {
  fields: ElementField[];
  attributes: AttributeField[];
} {
  const chain = collectHierarchy(t);
  const fields: ElementField[] = [];
  const attributes: AttributeField[] = [];
  for (const c of chain) {
    for (const f of c.fields) fields.push(f);
    for (const a of c.attributes) attributes.push(a);
  }
  return { fields, attributes };
}

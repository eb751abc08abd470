/**
 * Where each generated type comes from, as one line of its JSDoc: `{namespace}Name, complexType`
 * for a named type; an anonymous one is named by the element or attribute it is declared in.
 */
import type { ComplexType, SimpleType, TypeRef, WsdlModel } from "../../model/model.js";
import type { QName } from "../../parse/qname.js";

type Declared = ComplexType | SimpleType;

const clark = (name: QName): string => `{${name.ns}}${name.local}`;
const kindName = (t: Declared): string => (t.kind === "complex" ? "complexType" : "simpleType");

/** Anonymous types by the declaration they are written in, for each model (built once). */
const owners = new WeakMap<WsdlModel, Map<Declared, string>>();

function ownersOf(model: WsdlModel): Map<Declared, string> {
  let found = owners.get(model);
  if (found) return found;
  found = new Map();
  owners.set(model, found);
  const note = (type: TypeRef, where: string): void => {
    if (type.kind !== "builtin" && type.name === undefined && !found!.has(type))
      found!.set(type, where);
  };
  // Top-level elements first, so that an element's type is named by it before any local use.
  for (const e of model.elements) note(e.type, `element ${clark(e.name)}`);
  for (const t of model.types) {
    if (t.kind !== "complex") continue;
    for (const f of t.fields) note(f.type, `local element ${clark(f.name)}`);
    for (const a of t.attributes) note(a.type, `attribute ${clark(a.name)}`);
    if (t.simpleContent) note(t.simpleContent, `text content of ${provenance(model, t)}`);
  }
  // What no schema declares: an RPC operation's message parts and a service's SOAP headers.
  for (const s of model.services) {
    for (const op of s.operations) {
      note(op.input, `the input parts of operation ${s.name}.${op.name}`);
      if (op.result.kind === "object")
        note(op.result.type, `the output parts of operation ${s.name}.${op.name}`);
    }
    if (s.soapHeaders) note(s.soapHeaders, `the SOAP headers of service ${s.name}`);
  }
  return found;
}

/** The provenance line of `t`, e.g. `{http://api.example.com/messages/}Messages, complexType`. */
export function provenance(model: WsdlModel, t: Declared): string {
  if (t.name) return `${clark(t.name)}, ${kindName(t)}`;
  const owner = ownersOf(model).get(t);
  if (owner?.startsWith("the ")) return `Made from ${owner}, not from a schema type`;
  return owner ? `Anonymous ${kindName(t)} of ${owner}` : `Anonymous ${kindName(t)}`;
}

/**
 * The generic element tree (`XmlNode`) that faults, headers and undescribed content are kept as:
 * the reader builds it, the writer writes it, and errors and contexts carry it.
 */
/** A generic element tree, for SOAP faults and content without a descriptor. */
export interface XmlNode {
  readonly ns: string;
  readonly local: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: (XmlNode | string)[];
  /**
   * The namespace bindings an attribute value relies on, by prefix: a QName in `xsi:type`
   * (`sf:Account`) means nothing without its prefix's binding, which may be declared far above the
   * tree. Written back as declarations on the element. Absent when no value needs one. An
   * unprefixed `xsi:type` on an element outside the default namespace (`<p:item xsi:type="Foo">`)
   * is read as `d:Foo` with `d` bound here, since the tree is written with its own namespace as
   * the default.
   */
  readonly prefixes?: Readonly<Record<string, string>>;
}

/**
 * A name in Clark notation: `{ns}local`, or `local` for no namespace (how attribute bags are
 * keyed).
 */
export function clark(ns: string | undefined, local: string): string {
  return ns ? `{${ns}}${local}` : local;
}

/** The text content of a tree node. */
export function nodeText(node: XmlNode): string {
  return node.children.map((c) => (typeof c === "string" ? c : nodeText(c))).join("");
}

/** A child element of a tree node by local name (and namespace, when given). */
export function childNode(node: XmlNode, local: string, ns?: string): XmlNode | undefined {
  for (const c of node.children)
    if (typeof c !== "string" && c.local === local && (ns === undefined || c.ns === ns)) return c;
  return undefined;
}

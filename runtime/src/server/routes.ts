/**
 * How the generated server finds the operation a request is for: SOAP operations by SOAPAction and
 * body element (several may share an action), HTTP GET/POST operations by verb and path.
 */
import type { HttpOperationDesc, PortDesc, SoapOperationDesc } from "../descriptors/operations.js";

/** An HTTP GET or POST operation of a port, as a request is routed to it. */
export interface HttpRoute {
  readonly name: string;
  readonly op: HttpOperationDesc;
  readonly port: PortDesc;
}

/** The operations of the `ports` of one HTTP protocol, in port and operation order. */
export function httpRouted(
  ports: readonly PortDesc[],
  protocol: "httpGet" | "httpPost",
): HttpRoute[] {
  const out: HttpRoute[] = [];
  for (const port of ports) {
    if (port.protocol !== protocol) continue;
    for (const [name, op] of Object.entries(port.operations))
      if (op.kind === "http") out.push({ name, op, port });
  }
  return out;
}

/** A port's path as an HTTP operation's location is appended to it: without a trailing slash. */
export const pathBase = (path: string): string => path.replace(/\/$/, "");

/** Whether the query asks for the WSDL (`?WSDL`, any case). */
export const wantsWsdl = (url: URL): boolean =>
  [...url.searchParams].some(([k, v]) => k.toLowerCase() === "wsdl" && v === "");
export const wantsDisco = (url: URL): boolean =>
  [...url.searchParams.keys()].some((k) => k.toLowerCase() === "disco");
/** The document a query names the ASMX way (`xsd=1`, `wsdl=2`), if it names one. */
export const namedDocument = (url: URL): string | undefined => {
  for (const [k, v] of url.searchParams) {
    const key = k.toLowerCase();
    if ((key === "xsd" || key === "wsdl") && v !== "") return `${key}=${v}`;
  }
  return undefined;
};

/** An operation of a port, as a request is routed to it. */
export interface Routed {
  readonly name: string;
  readonly op: SoapOperationDesc;
  readonly port: PortDesc;
}

/**
 * The SOAP operations of one version at an endpoint: its ports, their operations, and those by
 * SOAPAction.
 */
export interface SoapRoutes {
  readonly ports: readonly PortDesc[];
  readonly operations: readonly Routed[];
  readonly byAction: ReadonlyMap<string, readonly Routed[]>;
}

/** The SOAP operations of `ports`, in port and operation order. */
export function soapRouted(ports: readonly PortDesc[]): Routed[] {
  const out: Routed[] = [];
  for (const port of ports)
    for (const [name, op] of Object.entries(port.operations))
      if (op.kind === "soap") out.push({ name, op, port });
  return out;
}

/**
 * The first of `ops` whose action is empty (a request without one is most likely theirs), else the
 * first.
 */
export function preferActionless(ops: readonly Routed[]): Routed | undefined {
  return ops.find((r) => r.op.action === undefined || r.op.action === "") ?? ops[0];
}

/**
 * The operation of `ops` whose request element is {ns}local (see preferActionless when several
 * are).
 */
export function byElement(ops: readonly Routed[], ns: string, local: string): Routed | undefined {
  return preferActionless(
    ops.filter(
      (r) =>
        r.op.request !== undefined &&
        r.op.request.element.ns === ns &&
        r.op.request.element.name === local,
    ),
  );
}

/** The WSDL a generated server serves at `?WSDL`, as the generator embeds it (wsdl.ts). */

/**
 * The WSDL a generator embedded for a service whose WSDL imports or includes other documents: the
 * root, served at `?WSDL`, and the documents it reaches, each served at its key as a query
 * (`?xsd=1`, `?wsdl=2`). Their references to each other name EMBEDDED_DOCUMENT, which each response
 * replaces with the URL it is served at.
 */
export interface EmbeddedWsdl {
  readonly root: string;
  readonly imports: Readonly<Record<string, string>>;
}

/** Stands for the service's URL followed by `?` in the import locations of embedded documents. */
export const EMBEDDED_DOCUMENT = "urn:wsdl-tsgen:embedded-document?";

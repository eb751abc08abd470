/**
 * The one place that tells SOAP bindings from HTTP ones: the predicates are inferred by the
 * compiler (not declared), and the operation helpers narrow the BindingOperation union.
 */
import type {
  BindingOperation,
  BindingProtocol,
  HttpBindingOperation,
  SoapBindingOperation,
} from "./model.js";

/** Whether `p` is SOAP 1.1 or 1.2 (narrowing it to SoapProtocol). */
export const isSoapProtocol = (p: BindingProtocol | undefined) => p === "soap11" || p === "soap12";

/** Whether `p` is HTTP GET or POST (narrowing it to HttpProtocol). */
export const isHttpProtocol = (p: BindingProtocol | undefined) =>
  p === "httpGet" || p === "httpPost";

/** `bop` if it is a SOAP binding's operation, else undefined: for what only SOAP declares. */
export const ifSoap = (bop: BindingOperation): SoapBindingOperation | undefined =>
  bop.protocol === "soap11" || bop.protocol === "soap12" ? bop : undefined;

/** `bop` if it is an HTTP binding's operation, else undefined: for what only HTTP declares. */
export const ifHttp = (bop: BindingOperation): HttpBindingOperation | undefined =>
  bop.protocol === "httpGet" || bop.protocol === "httpPost" ? bop : undefined;

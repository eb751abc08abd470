/**
 * A test's way to the fields of one protocol's binding operations: the operation narrowed, or the
 * test failing with what it found instead.
 */
import type {
  BindingOperation,
  HttpBindingOperation,
  SoapBindingOperation,
} from "../../src/model/model.js";
import { ifHttp, ifSoap } from "../../src/model/protocols.js";

const found = (bop: BindingOperation | undefined): string =>
  bop ? `an operation of protocol ${bop.protocol}` : "no operation";

/** `bop` as the SOAP binding operation the test expects it to be. */
export function soapBop(bop: BindingOperation | undefined): SoapBindingOperation {
  const soap = bop && ifSoap(bop);
  if (!soap) throw new Error(`expected a SOAP binding operation, found ${found(bop)}`);
  return soap;
}

/** `bop` as the HTTP binding operation the test expects it to be. */
export function httpBop(bop: BindingOperation | undefined): HttpBindingOperation {
  const http = bop && ifHttp(bop);
  if (!http) throw new Error(`expected an HTTP binding operation, found ${found(bop)}`);
  return http;
}

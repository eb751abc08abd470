/** The errors of Negotiate before any response: no ticket, or a password the KDC refused. */
import { AuthenticationError } from "@wsdl-tsgen/runtime";

export type NegotiateFailure = "no-ticket" | "wrong-password";

/**
 * Kerberos could not make a token for the service: there is no ticket (no `kinit`, an expired
 * one, no KDC for the realm) or the KDC refused the password. An AuthenticationError whose status
 * is 0, since no request was answered.
 */
export class NegotiateError extends AuthenticationError {
  constructor(
    message: string,
    readonly reason: NegotiateFailure,
  ) {
    super(message, 0, []);
    this.name = "NegotiateError";
  }
}

/**
 * `ntlm()`: NTLMv2 authentication (MS-NLMP) with no dependency, for services behind IIS or Apache
 * with Windows authentication. The handshake's three messages go on one kept-alive connection.
 */
import { splitUser, type Credentials, type HttpAuthentication } from "./auth.js";
import { authenticateMessage, negotiateMessage, readChallenge } from "./ntlm-messages.js";

export interface NtlmOptions extends Credentials {
  /** The workstation name sent in AUTHENTICATE. Default: none. */
  readonly workstation?: string;
}

/**
 * NTLMv2 with `username` (`DOMAIN\name`, `name@DOMAIN`, or `name` with `domain`) and `password`,
 * given once: each connection's handshake, and each one the server asks for again, uses them.
 * NTLMv1 and LM responses are never sent.
 */
export function ntlm(options: NtlmOptions): HttpAuthentication {
  const { user, domain } = splitUser(options.username, options.domain);
  const identity = {
    user,
    domain,
    password: options.password,
    workstation: options.workstation ?? "",
  };
  return {
    scheme: "NTLM",
    connectionBound: true,
    handshake() {
      let negotiate: Buffer | undefined;
      return {
        step(challenge) {
          if (negotiate === undefined || challenge === undefined) {
            negotiate = negotiateMessage();
            return `NTLM ${negotiate.toString("base64")}`;
          }
          const message = authenticateMessage(
            identity,
            negotiate,
            readChallenge(Buffer.from(challenge, "base64")),
          );
          return `NTLM ${message.toString("base64")}`;
        },
      };
    },
  };
}

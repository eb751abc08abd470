/**
 * The errors of the transport: no response (a time-out, a refused connection), or credentials the
 * server refused. Here rather than in errors.ts, so that the transport stands below the client and
 * imports nothing of the rooms above it; errors.ts re-exports them.
 */
/** The request could not be sent or no response arrived (time-out, refused connection, …). */
export class TransportError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = "TransportError";
  }
}

/**
 * The server refused the credentials of `auth` (a wrong password, an unknown user), or offered no
 * scheme the client has: given at once, naming the status and the schemes offered.
 */
export class AuthenticationError extends TransportError {
  constructor(
    message: string,
    readonly status: number,
    readonly offered: readonly string[],
  ) {
    super(message, undefined);
    this.name = "AuthenticationError";
  }
}

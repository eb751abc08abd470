/** A mistake in how the command line was used (exit status 2). */
export class UsageError extends Error {}

/**
 * The network options of the commands that fetch a WSDL (`--auth`, `--user`, `--domain`,
 * `--proxy`, `--ca`, `--cert`, `--key`) as the runtime's TransportOptions. The password comes
 * from the environment only (WSDL_TSGEN_PASSWORD): never an option, so never in a shell history,
 * a process list or a config file, and never printed.
 */
import { readFileSync } from "node:fs";
import { basic, ntlm, type HttpAuthentication, type TransportOptions } from "@wsdl-tsgen/runtime";
import { UsageError } from "./usage-error.js";

export const PASSWORD_ENV = "WSDL_TSGEN_PASSWORD";

/** What a source (or a command's flags) says of the network. */
export interface NetworkFlags {
  readonly auth?: string | undefined;
  readonly user?: string | undefined;
  readonly domain?: string | undefined;
  readonly proxy?: string | undefined;
  readonly ca?: string | undefined;
  readonly cert?: string | undefined;
  readonly key?: string | undefined;
}

/** The transport options of `flags`, the password read from `env`. */
export async function transportOf(
  flags: NetworkFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<TransportOptions> {
  const tls = {
    ...(flags.ca !== undefined ? { ca: readPem(flags.ca, "--ca") } : {}),
    ...(flags.cert !== undefined ? { cert: readPem(flags.cert, "--cert") } : {}),
    ...(flags.key !== undefined ? { key: readPem(flags.key, "--key") } : {}),
  };
  if ((flags.cert === undefined) !== (flags.key === undefined))
    throw new UsageError("--cert and --key go together: a client certificate needs its key");
  if (flags.auth === undefined && flags.user !== undefined)
    throw new UsageError("--user is sent only with --auth ntlm|negotiate|basic");
  if (flags.domain !== undefined && flags.user === undefined)
    throw new UsageError("--domain goes with --user: it is the domain of that user");
  const auth = flags.auth === undefined ? undefined : await authOf(flags, env);
  return {
    ...(auth ? { auth } : {}),
    ...(flags.proxy !== undefined ? { proxy: flags.proxy } : {}),
    ...(Object.keys(tls).length > 0 ? { tls } : {}),
  };
}

async function authOf(flags: NetworkFlags, env: NodeJS.ProcessEnv): Promise<HttpAuthentication> {
  const password = env[PASSWORD_ENV];
  const scheme = flags.auth!;
  if (scheme === "negotiate") return negotiateOf(flags, password);
  if (flags.user === undefined) throw new UsageError(`--auth ${scheme} needs --user`);
  if (password === undefined)
    throw new UsageError(
      `--auth ${scheme} needs the password in the environment variable ${PASSWORD_ENV} (it is never taken as an option)`,
    );
  const credentials = {
    username: flags.user,
    password,
    ...(flags.domain !== undefined ? { domain: flags.domain } : {}),
  };
  if (scheme === "ntlm") return ntlm(credentials);
  if (scheme === "basic") return basic(credentials);
  throw new UsageError(`--auth ${scheme}: expected ntlm, negotiate or basic`);
}

/** Negotiate from @wsdl-tsgen/negotiate, which is installed apart (it has a native binding). */
async function negotiateOf(
  flags: NetworkFlags,
  password: string | undefined,
): Promise<HttpAuthentication> {
  const module: unknown = await import(NEGOTIATE).catch((e: unknown) => {
    throw negotiateImportError(e);
  });
  if (!hasNegotiate(module))
    throw new UsageError(
      `--auth negotiate: ${NEGOTIATE} exports no negotiate(); reinstall it: npm install ${NEGOTIATE}`,
    );
  if (flags.user === undefined) return module.negotiate();
  if (password === undefined)
    throw new UsageError(
      `--auth negotiate --user needs the password in the environment variable ${PASSWORD_ENV} (without --user, the credential cache's ticket is used)`,
    );
  return module.negotiate({
    username: flags.user,
    password,
    ...(flags.domain !== undefined ? { domain: flags.domain } : {}),
  });
}

const NEGOTIATE = "@wsdl-tsgen/negotiate";

/**
 * The usage error of a failed import of @wsdl-tsgen/negotiate: how to install it when it is not
 * there, else what failed (its native kerberos binding not loading, say).
 */
export function negotiateImportError(e: unknown): UsageError {
  const code = e instanceof Error && "code" in e ? e.code : undefined;
  const message = e instanceof Error ? e.message : String(e);
  if (code === "ERR_MODULE_NOT_FOUND" && message.includes(`'${NEGOTIATE}'`))
    return new UsageError(
      `--auth negotiate needs the package ${NEGOTIATE}: npm install ${NEGOTIATE}`,
    );
  return new UsageError(`--auth negotiate: ${NEGOTIATE} could not be loaded: ${message}`);
}

const hasNegotiate = (m: unknown): m is { negotiate: (o?: object) => HttpAuthentication } =>
  typeof m === "object" && m !== null && "negotiate" in m && typeof m.negotiate === "function";

function readPem(file: string, flag: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    const code = e instanceof Error && "code" in e ? String(e.code) : "unreadable";
    throw new UsageError(`${flag} ${file}: ${code}`);
  }
}

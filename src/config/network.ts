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
  const auth = flags.auth === undefined ? undefined : await authOf(flags, env);
  if (flags.auth === undefined && flags.user !== undefined)
    throw new UsageError("--user is sent only with --auth ntlm|negotiate|basic");
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
  const name = "@wsdl-tsgen/negotiate";
  const module: unknown = await import(name).catch(() => undefined);
  if (!hasNegotiate(module))
    throw new UsageError(`--auth negotiate needs the package ${name}: npm install ${name}`);
  if (flags.user === undefined) return module.negotiate();
  return module.negotiate({
    username: flags.user,
    ...(password !== undefined ? { password } : {}),
    ...(flags.domain !== undefined ? { domain: flags.domain } : {}),
  });
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

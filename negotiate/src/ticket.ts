/**
 * Kerberos tickets for `negotiate({ username, password })`: an initial ticket obtained with MIT's
 * kinit into a credential cache private to this process, since the GSSAPI binding takes no
 * password off Windows. The password goes to kinit's standard input, never its arguments.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { NegotiateError } from "./errors.js";

/** The Kerberos principal of `DOMAIN\name`, `name@REALM`, or `name` with `domain`. */
export function principalOf(username: string, domain?: string): string {
  const slash = username.indexOf("\\");
  if (slash >= 0) return `${username.slice(slash + 1)}@${username.slice(0, slash).toUpperCase()}`;
  if (username.includes("@") || !domain) return username;
  return `${username}@${domain.toUpperCase()}`;
}

const made: string[] = [];
process.once("exit", () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A new credential cache holding `principal`'s initial ticket; rejects as kinit failed. */
export async function obtainTicket(principal: string, password: string): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "wsdl-tsgen-krb5-"));
  made.push(dir);
  const ccache = `FILE:${path.join(dir, "ccache")}`;
  const r = await kinit(["-c", ccache, principal], password);
  if (r.code === 0) return ccache;
  rmSync(dir, { recursive: true, force: true });
  const said =
    r.output
      .replace(/^Password for .*?:\s*/s, "")
      .replace(/^kinit:\s*/, "")
      .trim() || `exit ${r.code}`;
  const wrong = /password incorrect|preauthentication failed/i.test(said);
  throw new NegotiateError(
    wrong
      ? `Negotiate: the KDC refused the password of ${principal} (kinit: ${said})`
      : `Negotiate: no Kerberos ticket for ${principal}: ${said}`,
    wrong ? "wrong-password" : "no-ticket",
  );
}

function kinit(args: string[], password: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("kinit", args, {
      env: { ...process.env, LC_ALL: "C" },
      stdio: ["pipe", "pipe", "pipe"],
      timeout: 30_000,
    });
    let output = "";
    child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
    child.once("error", (e) => resolve({ code: null, output: `kinit did not run: ${e.message}` }));
    child.once("close", (code) => resolve({ code, output }));
    child.stdin!.on("error", () => {});
    child.stdin!.end(`${password}\n`);
  });
}

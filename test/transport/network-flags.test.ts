/**
 * The command line's network flags as transport options: a user without a password is refused
 * rather than Negotiate falling back on the credential cache unsaid, and a failed import of
 * @wsdl-tsgen/negotiate says what failed, the install hint only when the package is missing.
 */
import { describe, expect, it } from "vitest";
import { negotiate } from "@wsdl-tsgen/negotiate";
import { negotiateImportError, PASSWORD_ENV, transportOf } from "../../src/config/network.js";
import { UsageError } from "../../src/config/usage-error.js";

describe("--auth negotiate", () => {
  it("refuses --user without the password, naming its variable", async () => {
    const e = await transportOf({ auth: "negotiate", user: "alice" }, {}).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UsageError);
    expect((e as Error).message).toContain(PASSWORD_ENV);
    const given = await transportOf({ auth: "negotiate", user: "alice" }, { [PASSWORD_ENV]: "p" });
    expect(given.auth?.scheme).toBe("Negotiate");
  });

  it("refuses --domain without --user, which it would be dropped beside", async () => {
    await expect(transportOf({ auth: "negotiate", domain: "EXAMPLE" }, {})).rejects.toThrow(
      /--domain goes with --user/,
    );
  });

  it("gives the install hint only when the package itself is missing", () => {
    const missing = Object.assign(
      new Error("Cannot find package '@wsdl-tsgen/negotiate' imported from /x/network.js"),
      { code: "ERR_MODULE_NOT_FOUND" },
    );
    expect(negotiateImportError(missing).message).toMatch(/npm install @wsdl-tsgen\/negotiate$/);
    const binding = new Error("libgssapi_krb5.so.2: cannot open shared object file");
    expect(negotiateImportError(binding).message).toBe(
      "--auth negotiate: @wsdl-tsgen/negotiate could not be loaded: libgssapi_krb5.so.2: cannot open shared object file",
    );
    const dependency = Object.assign(
      new Error(
        "Cannot find package 'kerberos' imported from /x/node_modules/@wsdl-tsgen/negotiate/dist/index.js",
      ),
      { code: "ERR_MODULE_NOT_FOUND" },
    );
    expect(negotiateImportError(dependency).message).toMatch(/could not be loaded: .*'kerberos'/);
  });
});

describe("negotiate()", () => {
  it("refuses a username without a password, and a domain without a username", () => {
    expect(() => negotiate({ username: "alice" })).toThrow(
      /^negotiate\(\): a username goes with a password/,
    );
    expect(() => negotiate({ domain: "EXAMPLE" })).toThrow(/a domain goes with a username/);
    expect(negotiate({ username: "alice", password: "p" }).scheme).toBe("Negotiate");
  });
});

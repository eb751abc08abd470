/** The command line (examples/message-service/cli.ts), run in-process: results, one-line errors, exit statuses. No server is started. */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { main } from "../../examples/message-service/cli.js";
import { openSqlite } from "../../examples/message-service/store.js";
import { bare, login, runMain, SEED, SEED_PATH, tempDir } from "./helpers.js";

/** Runs the command line with `args`; returns its exit status and what it printed. */
const run = (...args: string[]) => runMain(main, args);

const noStackTrace = (text: string) => expect(text).not.toMatch(/^\s+at /m);

describe("add-account", () => {
  it("adds an account with a hashed password; a taken e-mail or user id fails with status 1", async () => {
    const db = path.join(tempDir(), "sub", "m.db");
    expect(
      await run(
        "add-account",
        "--db",
        db,
        "--email",
        "carol@example.com",
        "--password",
        "pw",
        "--user-id",
        "1003",
      ),
    ).toEqual({ code: 0, out: "added carol@example.com (user id 1003)", err: "" });
    const store = openSqlite(db);
    expect(await login(store, "carol@example.com", "pw")).toBe(1003);
    await store.close();
    const dup = await run(
      "add-account",
      "--db",
      db,
      "--email",
      "CAROL@example.com",
      "--password",
      "x",
      "--user-id",
      "1004",
    );
    expect(dup).toEqual({
      code: 1,
      out: "",
      err: "error: an account with e-mail CAROL@example.com or user id 1004 exists already",
    });
    expect(
      (
        await run(
          "add-account",
          "--db",
          db,
          "--email",
          "dave@example.com",
          "--password",
          "x",
          "--user-id",
          "1003",
        )
      ).code,
    ).toBe(1);
  });

  it("rejects bad usage with status 2 before touching the database", async () => {
    const dir = tempDir();
    const db = path.join(dir, "m.db");
    const cases: [string[], RegExp][] = [
      [
        ["--email", "a@example.com", "--password", "p", "--user-id", "1.5"],
        /option '--user-id <n>' argument '1.5' is invalid. It must be an integer from -2147483648 to 2147483647/,
      ],
      [
        ["--email", "a@example.com", "--password", "p", "--user-id", "2147483648"],
        /argument '2147483648' is invalid/,
      ],
      [
        ["--email", "a@example.com", "--password", "", "--user-id", "5"],
        /option '--password <password>' argument '' is invalid. It must not be empty/,
      ],
      [
        ["--email", "a@example.com", "--password", "p"],
        /required option '--user-id <n>' not specified/,
      ],
      [
        ["--email", "a@example.com", "--password", "p", "--user-id", "5", "--bogus"],
        /unknown option '--bogus'/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await run("add-account", "--db", db, ...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toMatch(message);
      noStackTrace(r.err);
    }
    expect(existsSync(db)).toBe(false);
  });
});

describe("import", () => {
  it("imports a JSON array of messages idempotently", async () => {
    const dir = tempDir();
    const db = path.join(dir, "m.db");
    expect(
      (
        await run(
          "add-account",
          "--db",
          db,
          "--email",
          "carol@example.com",
          "--password",
          "pw",
          "--user-id",
          "1003",
        )
      ).code,
    ).toBe(0);
    const file = path.join(dir, "msgs.json");
    writeFileSync(file, JSON.stringify(SEED.accounts[1]!.messages));
    expect(await run("import", "--db", db, "--email", "carol@example.com", "--file", file)).toEqual(
      { code: 0, out: "imported 3 of 3 messages for carol@example.com", err: "" },
    );
    expect(
      (await run("import", "--db", db, "--email", "carol@example.com", "--file", file)).out,
    ).toBe("imported 0 of 3 messages for carol@example.com (3 with ids already present skipped)");
    const store = openSqlite(db);
    expect((await store.listMessages(1003)).map((m) => [m.Id, m.DateArrived])).toEqual([
      [201, "2023-12-31T23:00:00"],
      [202, "2024-01-20T09:15:00"],
      [203, "2024-04-01T07:45:30"],
    ]);
    await store.close();
  });

  it("fails with status 1 and a one-line message naming the problem, importing nothing", async () => {
    const dir = tempDir();
    const db = path.join(dir, "m.db");
    await run(
      "add-account",
      "--db",
      db,
      "--email",
      "carol@example.com",
      "--password",
      "pw",
      "--user-id",
      "1003",
    );
    const write = (name: string, text: string) => {
      const p = path.join(dir, name);
      writeFileSync(p, text);
      return p;
    };
    const badDate = write(
      "bad-date.json",
      JSON.stringify([bare(1, "2024-01-01T00:00:00"), bare(2, "1/5/2024")]),
    );
    const notJson = write("not.json", "[{");
    const notArray = write("object.json", JSON.stringify({ Id: 1 }));
    const good = write("good.json", JSON.stringify([bare(1, "2024-01-01T00:00:00")]));
    const missing = path.join(dir, "missing.json");
    const cases: [string[], string | RegExp][] = [
      [
        ["--email", "carol@example.com", "--file", badDate],
        `error: ${badDate}[1].DateArrived: '1/5/2024' is not an xs:dateTime value`,
      ],
      [
        ["--email", "carol@example.com", "--file", notJson],
        new RegExp(`^error: ${notJson.replace(/[.\\]/g, "\\$&")}: not valid JSON \\(.+\\)$`),
      ],
      [
        ["--email", "carol@example.com", "--file", notArray],
        `error: ${notArray}: must be a JSON array of messages`,
      ],
      [["--email", "carol@example.com", "--file", missing], `error: ${missing}: no such file`],
      [
        ["--email", "nobody@example.com", "--file", good],
        "error: no account with e-mail nobody@example.com",
      ],
    ];
    for (const [args, message] of cases) {
      const r = await run("import", "--db", db, ...args);
      expect(r.code, args.join(" ")).toBe(1);
      if (typeof message === "string") expect(r.err).toBe(message);
      else expect(r.err).toMatch(message);
      expect(r.err.split("\n")).toHaveLength(1);
    }
    const store = openSqlite(db);
    expect(await store.listMessages(1003)).toEqual([]);
    await store.close();
  });
});

describe("seed and serve, up to the point of listening", () => {
  it("seeds idempotently", async () => {
    const db = path.join(tempDir(), "m.db");
    expect(await run("seed", "--db", db, "--file", SEED_PATH)).toEqual({
      code: 0,
      out: `seeded ${db} from ${SEED_PATH}`,
      err: "",
    });
    expect((await run("seed", "--db", db, "--file", SEED_PATH)).code).toBe(0);
    const store = openSqlite(db);
    expect((await store.listMessages(1001)).map((m) => m.Id)).toEqual([101, 102, 103, 104, 105]);
    expect(await login(store, "bob@example.com", "bob-pass")).toBe(1002);
    await store.close();
  });

  it("serve rejects bad options with status 2, and a bad seed or database with status 1, before listening", async () => {
    const dir = tempDir();
    for (const args of [
      ["--port", "abc"],
      ["--port", "65536"],
      ["--port", "-1"],
      ["--bogus"],
      ["--host", ""],
      ["--max-connections", "0"],
      ["--headers-timeout", "1.5"],
      ["--max-kdf-queue", "-1"],
      ["--keep-alive-timeout", "soon"],
    ]) {
      const r = await run("serve", "--db", path.join(dir, "m.db"), ...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toMatch(/^error: /);
    }
    const missing = path.join(dir, "none.json");
    expect(
      await run("serve", "--port", "0", "--db", path.join(dir, "m.db"), "--seed", missing),
    ).toEqual({ code: 1, out: "", err: `error: ${missing}: no such file` });
    const folder = path.join(dir, "a-folder");
    mkdirSync(folder);
    const r = await run("serve", "--port", "0", "--db", folder);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      new RegExp(`^error: cannot open the database ${folder.replace(/[.\\]/g, "\\$&")}: `),
    );
    noStackTrace(r.err);
  });

  it("shows DATABASE_URL as --db's default without its password", async () => {
    vi.stubEnv("DATABASE_URL", "postgres://mrs:s3cret@db.example.com/messages");
    try {
      for (const command of ["serve", "seed", "import", "add-account"]) {
        const r = await run(command, "--help");
        expect(r.code).toBe(0);
        // Help wraps its lines; the words are what matter.
        expect(r.out.replace(/\s+/g, " ")).toContain(
          '(default: "postgres://mrs:***@db.example.com/messages")',
        );
        expect(r.out + r.err).not.toContain("s3cret");
      }
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("rejects an unknown command with status 2", async () => {
    const r = await run("frobnicate");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown command 'frobnicate'/);
  });
});

/**
 * `npm run attack -- <fuzz|load|kill|slow> [options]`: the soak and attack scripts, against the
 * service on loopback, each bounded in count and time and printing one summary line; with no
 * script named, issue #37's nine cases (round2.ts), one line each. Not part of `npm test`;
 * docs/attacks.md records the last run of each.
 */
const SCRIPTS: Record<string, string> = {
  fuzz: "./fuzz.js",
  load: "./load.js",
  kill: "./kill-loop.js",
  slow: "./slow-probe.js",
  round2: "./round2.js",
};

const which = process.argv[2] ?? "round2";
const script = which === undefined ? undefined : SCRIPTS[which];
if (script === undefined) {
  console.error(`usage: npm run attack -- <${Object.keys(SCRIPTS).join("|")}> [options]`);
  process.exitCode = 2;
} else {
  process.argv.splice(2, 1);
  const { main } = (await import(script)) as { main: () => Promise<number> };
  process.exitCode = await main();
}

/**
 * `npm run attack -- <fuzz|load|kill|slow> [options]`: the soak and attack scripts, against the
 * service on loopback, each bounded in count and time and printing one summary line. Not part of
 * `npm test`; docs/attacks.md records the last run of each.
 */
const SCRIPTS: Record<string, string> = {
  fuzz: "./fuzz.js",
  load: "./load.js",
  kill: "./kill-loop.js",
  slow: "./slow-probe.js",
};

const which = process.argv[2];
const script = which === undefined ? undefined : SCRIPTS[which];
if (script === undefined) {
  console.error(`usage: npm run attack -- <${Object.keys(SCRIPTS).join("|")}> [options]`);
  process.exitCode = 2;
} else {
  process.argv.splice(2, 1);
  const { main } = (await import(script)) as { main: () => Promise<number> };
  process.exitCode = await main();
}

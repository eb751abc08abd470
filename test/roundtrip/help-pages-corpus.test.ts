/**
 * The help pages of every corpus golden's generated server: the service page and every operation
 * page are served, every binding of the operation has its sample, each request sample sent to the
 * server reaches the implementation (the server read it), and each response sample is read by the
 * runtime's reader. A sample the server itself would refuse fails. Skipped, saying so, when the
 * corpus is absent.
 */
import { describe, expect, it } from "vitest";
import { CORPUS_GOLDENS, SKIP_LINE, corpusPresent } from "../../scripts/corpus-goldens.js";
import type { PortDesc } from "../../runtime/src/index.js";
import { loadGolden } from "../support/golden-services.js";
import { pageSamples, portOf, readResponseSample, sendSample } from "../support/help-samples.js";
import { listen } from "../support/loopback.js";

const present = corpusPresent();
if (!present) console.log(SKIP_LINE);

/**
 * The paths the handler serves its ports at (each port at its address's path), with their ports.
 */
function endpoints(ports: readonly PortDesc[]): Map<string, PortDesc[]> {
  const out = new Map<string, PortDesc[]>();
  for (const p of ports) {
    const path = new URL(p.address || "/", "http://localhost").pathname.replace(/\/+$/, "") || "/";
    out.set(path, [...(out.get(path) ?? []), p]);
  }
  return out;
}

describe.skipIf(!present)("corpus goldens' help pages", () => {
  for (const g of CORPUS_GOLDENS) {
    it(`${g.name}: every operation page's samples are accepted by the server and read back`, async () => {
      const problems: string[] = [];
      let checked = 0;
      for (const svc of (await loadGolden(g)).services) {
        const called: string[] = [];
        // Any method records its name and answers nothing: reaching it is what counts.
        const impl = new Proxy({}, { get: (_, name) => () => void called.push(String(name)) });
        const lb = await listen(svc.createHandler(impl as never, { logger: () => {} }));
        try {
          for (const [path, ports] of endpoints(Object.values(svc.desc.ports))) {
            const home = await fetch(lb.url + path);
            expect(home.status, `${svc.name} ${path}`).toBe(200);
            const names = [...new Set(ports.flatMap((p) => Object.keys(p.operations)))];
            expect(await home.text()).toContain(`?op=${encodeURIComponent(names[0]!)}"`);
            for (const op of names) {
              const page = await fetch(`${lb.url}${path}?op=${encodeURIComponent(op)}`);
              const samples = pageSamples(await page.text());
              const expected = ports
                .filter((p) => p.operations[op])
                .map((p) => `${p.protocol}-${p.name}`);
              expect(
                samples.map((s) => s.id),
                `${svc.name}.${op}`,
              ).toEqual(expected);
              for (const s of samples) {
                const where = `${svc.name}.${op} ${s.id}`;
                if (s.request === null) {
                  problems.push(`${where}: no sample`);
                  continue;
                }
                called.length = 0;
                const res = await sendSample(lb.url, s.request);
                const text = await res.text();
                if (called.join() !== svc.methods.get(op))
                  problems.push(
                    `${where}: the server refused the request sample (${res.status} ${text.slice(0, 300)})`,
                  );
                try {
                  if (s.response !== null)
                    readResponseSample(portOf(svc.desc, s.id), op, s.response);
                } catch (e) {
                  problems.push(
                    `${where}: the response sample does not read: ${(e as Error).message}`,
                  );
                }
                checked++;
              }
            }
          }
        } finally {
          await lb.close();
        }
      }
      expect(problems).toEqual([]);
      expect(checked).toBeGreaterThan(0);
    }, 120_000);
  }
});

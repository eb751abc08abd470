/**
 * Generated files skip Prettier for statements whose layout is known (src/emit/settle*.ts); the output
 * must still be exactly what Prettier prints. Checked on three large corpus roots with most of the
 * shapes (Bing campaign management, FedEx rate, Salesforce partner), generated as a user would (WSDL
 * embedded, docs copied), unlike their goldens. Skipped, saying so, without the corpus.
 */
import { existsSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { CORPUS_DIR } from "../../scripts/corpus.js";
import { formatTypeScript } from "../../src/emit/format.js";
import { generateFiles } from "../../src/generate.js";

const ROOTS = [
  "BingAds__BingAds-Python-SDK/bingads/v13/proxies/production/campaignmanagement_service.xml",
  "JeremyDunn__php-fedex-api-wrapper/src/FedEx/_wsdl/RateService_v31.wsdl",
  "developerforce__Force.com-Toolkit-for-PHP/soapclient/partner.wsdl.xml",
];

const exists = existsSync(CORPUS_DIR);
if (!exists) console.log(`Prettier fixed-point tests skipped: no corpus at ${CORPUS_DIR}`);

describe.skipIf(!exists)("generated corpus output is a fixed point of Prettier", () => {
  for (const root of ROOTS) {
    it(
      root,
      async () => {
        const r = await generateFiles(path.join(CORPUS_DIR, root));
        expect(r.files.length).toBeGreaterThan(0);
        for (const f of r.files)
          expect({ file: f.path, same: (await formatTypeScript(f.content)) === f.content }).toEqual(
            { file: f.path, same: true },
          );
      },
      120_000,
    );
  }
});

/** Where the repository and the corpus of real-world WSDLs (../shared/corpus, beside the checkout) are. */
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const CORPUS_DIR = path.resolve(REPO_ROOT, "../shared/corpus");

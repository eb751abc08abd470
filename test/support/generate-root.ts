/** Generates a WSDL given as text the way the corpus run does, so its type check can follow. */
import { statSync } from "node:fs";
import { generateRoot } from "../../scripts/corpus.js";
import { tempDir, writeTemp } from "./tmp.js";

/** Generates from `wsdl`, written to a temporary file `name`, as the corpus run does. */
export async function generateFrom(id: string, name: string, wsdl: string) {
  const file = writeTemp(tempDir(), name, wsdl);
  return generateRoot({
    id,
    repository: "test",
    path: name,
    file,
    bytes: statSync(file).size,
    notes: "",
  });
}

/**
 * `wsdl-tsgen download <url> --to <dir>`: vendors a WSDL and every document it imports into one
 * folder, rewriting import locations to the local copies, so that builds need no network
 * afterwards.
 */
import { mkdir, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { loadDocuments, type LoadOptions } from "./parse/loader.js";
import { relocatedTexts } from "./parse/relocate.js";

export interface DownloadResult {
  /** Local file names, the root first. */
  readonly files: readonly string[];
  readonly root: string;
}

function baseName(location: string): string {
  const raw = /^https?:/i.test(location) ? new URL(location).pathname : location;
  const name = path.basename(raw).replace(/[^A-Za-z0-9._-]+/g, "_");
  return name === "" || name === "_" ? "document" : name;
}

export async function download(
  location: string,
  to: string,
  options: LoadOptions = {},
): Promise<DownloadResult> {
  const docs = await loadDocuments(location, options);
  const names = new Map<string, string>();
  const used = new Set<string>();
  for (const loc of docs.texts.keys()) {
    let name = baseName(loc);
    if (loc === docs.root.file && !/\.(wsdl|xml)$/i.test(name))
      name = `${name.replace(/\.[^.]*$/, "")}.wsdl`;
    const stem = name.replace(/(\.[^.]*)?$/, "");
    const ext = name.slice(stem.length);
    for (let i = 2; used.has(name.toLowerCase()); i++) name = `${stem}-${i}${ext}`;
    used.add(name.toLowerCase());
    names.set(loc, name);
  }
  await mkdir(to, { recursive: true });
  const files: string[] = [];
  for (const [loc, text] of relocatedTexts(docs, (target) => names.get(target))) {
    const name = nameOf(names, loc);
    await writeFile(path.join(to, name), text);
    files.push(name);
  }
  return { files, root: nameOf(names, docs.root.file) };
}

/** The file name given to the document read from `loc`: every document read has one. */
function nameOf(names: ReadonlyMap<string, string>, loc: string): string {
  const name = names.get(loc);
  if (name === undefined) throw new Error(`internal error: no file name for ${loc}`);
  return name;
}

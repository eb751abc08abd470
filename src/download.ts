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
  /** Where each local file was read from (a URL or a path), by its local name. */
  readonly origins: ReadonlyMap<string, string>;
}

function baseName(location: string): string {
  const raw = /^https?:/i.test(location) ? new URL(location).pathname : location;
  const name = path.basename(raw).replace(/[^A-Za-z0-9._-]+/g, "_");
  return name === "" || name === "_" ? "document" : name;
}

/**
 * A local file name for a document, with the extension of its kind. WCF and ASMX serve all their
 * documents as queries of one path (`api.svc?wsdl`, `api.svc?xsd=xsd0`): those take the query's
 * values into the name (`api-xsd0.xsd`), so that tools and editors know the files for what they
 * are.
 */
function fileName(location: string, ext: ".wsdl" | ".xsd"): string {
  const name = baseName(location);
  if (/\.(wsdl|xsd|xml)$/i.test(name)) return name;
  const query = /^https?:/i.test(location) ? [...new URL(location).searchParams.values()] : [];
  const tag = query.join("-").replace(/[^A-Za-z0-9._-]+/g, "_");
  return `${name.replace(/\.[^.]*$/, "")}${tag === "" ? "" : `-${tag}`}${ext}`;
}

export async function download(
  location: string,
  to: string,
  options: LoadOptions = {},
): Promise<DownloadResult> {
  const docs = await loadDocuments(location, options);
  // A WSDL's own inline schemas name its file too: what is not a WSDL is a schema.
  const wsdls = new Set(docs.definitions.map((d) => d.file));
  const names = new Map<string, string>();
  const used = new Set<string>();
  for (const loc of docs.texts.keys()) {
    let name = fileName(loc, wsdls.has(loc) || loc === docs.root.file ? ".wsdl" : ".xsd");
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
  const origins = new Map([...names].map(([loc, name]) => [name, loc]));
  return { files, root: nameOf(names, docs.root.file), origins };
}

/** The file name given to the document read from `loc`: every document read has one. */
function nameOf(names: ReadonlyMap<string, string>, loc: string): string {
  const name = names.get(loc);
  if (name === undefined) throw new Error(`internal error: no file name for ${loc}`);
  return name;
}

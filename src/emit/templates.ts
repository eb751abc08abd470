/** Loads the Handlebars file skeletons (noEscape, strict): they hold layout only, no logic. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Handlebars from "handlebars";

const TEMPLATE_DIR = fileURLToPath(new URL("../../templates/", import.meta.url));

const hb = Handlebars.create();
hb.registerPartial("header", readFileSync(`${TEMPLATE_DIR}header.hbs`, "utf8"));

const compiled = new Map<string, Handlebars.TemplateDelegate>();

/** Renders `templates/<name>.hbs` with `view`. */
export function render(name: string, view: object): string {
  let t = compiled.get(name);
  if (!t) {
    t = hb.compile(readFileSync(`${TEMPLATE_DIR}${name}.hbs`, "utf8"), {
      noEscape: true,
      strict: true,
    });
    compiled.set(name, t);
  }
  return t(view);
}

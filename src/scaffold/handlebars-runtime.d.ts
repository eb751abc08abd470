/**
 * `handlebars/runtime.js` is Handlebars without its compiler, with Handlebars' own declarations
 * (its runtime.d.ts imports them but exports nothing).
 */
declare module "handlebars/runtime.js" {
  import Handlebars = require("handlebars");
  export = Handlebars;
}

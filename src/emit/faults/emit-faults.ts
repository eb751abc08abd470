/** faults.ts: one SoapFault subclass per declared wsdl:fault, carrying its typed detail. */
import { rt, rtType, type EmitContext } from "../context.js";
import { block, cat, params, type Statement } from "../code.js";
import { typeExpr } from "../type-expressions.js";

export function faultStatements(ctx: EmitContext): Statement[] {
  const faults = [...ctx.plan.names.faults.entries()];
  if (faults.length === 0)
    return [
      {
        code: "// This WSDL declares no wsdl:fault: its faults arrive as SoapFault (see index.ts).\nexport {};",
      },
    ];
  const base = rt(ctx, "SoapFault");
  const init = rtType(ctx, "SoapFaultInit");
  return faults.map(([element, f]) => {
    const detail = typeExpr(ctx, element.type, "output");
    const constructor = block(
      cat("constructor", params([`init: ${init}`, cat("faultDetail: ", detail)])),
      [
        { code: "super(init);" },
        { code: `this.name = ${JSON.stringify(f.className)};` },
        { code: "this.faultDetail = faultDetail;" },
      ],
    );
    return {
      doc: `The wsdl:fault ${f.faultName}: its detail holds {${element.name.ns}}${element.name.local}.`,
      code: block(`export class ${f.className} extends ${base}`, [
        { doc: "The decoded detail element.", code: cat("readonly faultDetail: ", detail, ";") },
        { code: constructor },
      ]),
    };
  });
}

/** dist/scaffold/precompiled.js, written by scripts/precompile-templates.mjs at build. */
export declare const TEMPLATES: Readonly<Record<string, TemplateSpecification>>;

// @tool-search/inline-sources: the one owner of "checked source files, run as text". Code that runs somewhere
// else than where it is written (sandbox-runner's guest programs, the console's page script and style) is kept as
// real files that tsc and ESLint read, and a generated module holds each file verbatim as a string constant. A
// package's script writes that module (`writeInlinedSourcesModule`), and its drift test checks the committed module
// is what the script writes (`renderInlinedSourcesModule`).
export { renderInlinedSourcesModule, writeInlinedSourcesModule } from './render-inlined-sources-module.js';
export type { InlinedSources } from './render-inlined-sources-module.js';

import { defineToolSearchConfig } from '@tool-search/tsup-config';
import type { Options } from 'tsup';

// Two builds. The library (src/index.ts) re-exports the packages, as they are installed. The bin (src/cli.ts) is
// bundled with its dependencies: Node then loads a few files instead of some three hundred modules of zod, the MCP
// SDK, ajv and pino, which is most of what `tool-search serve` spends before it answers (see README, figures).
// Each command still loads in its own chunk, only when it runs. @tool-search/sandbox-runner stays a package: it
// finds its sandbox runtimes next to its own files.
const library: Options = defineToolSearchConfig({ platform: 'node', entry: ['src/index.ts'] });
const bin: Options = {
  ...defineToolSearchConfig({ platform: 'node', entry: ['src/cli.ts'] }),
  // Everything else is bundled (tsup keeps dependencies external unless told).
  noExternal: [/^(?!@tool-search\/sandbox-runner$|zod(\/|$)|pino(\/|$))/],
  splitting: true,
  dts: false,
  clean: false,
  // Bundled CommonJS dependencies (cross-spawn, ajv, pino's helpers) require Node's modules.
  banner: { js: "import { createRequire as __toolSearchCreateRequire } from 'node:module';\nconst require = __toolSearchCreateRequire(import.meta.url);" },
};
export default [library, bin];

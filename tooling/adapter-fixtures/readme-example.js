// What the framework adapters' README examples take as given, the same for every framework: the host's tools (one a
// policy denies) and the record of what ran. Each package's examples/example-setup.ts re-exports it with its model.

/** Every tool run, in order. */
export const ran = [];

/** The README examples' host tools: `get_weather` and `exec_shell` (the one the examples' policy denies). */
export const coreTools = [
  {
    name: 'get_weather',
    description: 'Get the weather forecast for a city.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: (args) => {
      ran.push(`get_weather ${String(args['city'])}`);
      return 'Rain tomorrow.';
    },
  },
  {
    name: 'exec_shell',
    description: 'Run a shell command.',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } } },
    execute: () => {
      ran.push('exec_shell');
      return 'ran';
    },
  },
];

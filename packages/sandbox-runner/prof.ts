import { createRunner } from './src/index.js';
const runner = createRunner({ engine: 'quickjs', pool: { size: 2 } });
const bridge = { search: () => [], describe: (id: string) => ({ id }), call: (_i: string, a: unknown) => a };
await runner.run({ code: 'return 1', bridge });
const t0 = performance.now();
for (let k = 0; k < 40; k++) await runner.run({ code: "for (let i = 0; i < 45; i += 1) await tools.describe('x'); return 1", bridge, timeoutMs: 20000 });
console.log('per call', ((performance.now() - t0) / 40 / 45).toFixed(3));
await runner.close();

import { describe, expect, it } from 'vitest';
import { createFakeRunner } from './index.js';

describe('createFakeRunner', () => {
  it('runs a body in-process against the bridge, and records the run', async () => {
    const runner = createFakeRunner();
    const result = await runner.run({
      code: 'const hits = await tools.search("x"); return await tools.call(hits[0].id, { n: 2 });',
      timeoutMs: 1_000,
      bridge: { search: async () => [{ id: 'a' }], describe: async () => ({ found: false }), call: async (id, args) => ({ id, args }) },
    });
    expect(result).toMatchObject({ ok: true, value: { id: 'a', args: { n: 2 } }, stats: { calls: { search: 1, describe: 0, call: 1 } } });
    expect(runner.runs).toEqual([{ code: expect.stringContaining('tools.search'), timeoutMs: 1_000 }]);
    await runner.close();
    expect(runner.closed).toBe(true);
  });
});

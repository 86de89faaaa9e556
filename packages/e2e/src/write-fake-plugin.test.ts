import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_FAKE_TOOL_COUNT, fakeToolSpecs, writeFakePlugin } from './write-fake-plugin.js';

describe('fakeToolSpecs', () => {
  it('[H2] makes 1,000 tools with distinct names, descriptions and schema tokens by default', () => {
    const specs = fakeToolSpecs();
    expect(specs).toHaveLength(DEFAULT_FAKE_TOOL_COUNT);
    expect(new Set(specs.map((spec) => spec.name)).size).toBe(1_000);
    expect(new Set(specs.map((spec) => spec.description)).size).toBe(1_000);
    expect(new Set(specs.map((spec) => spec.schemaToken)).size).toBe(1_000);
    for (const spec of specs) {
      expect(spec.name).toMatch(/^[a-z0-9_]{1,64}$/);
      expect(spec.description.split(' ').length).toBeGreaterThan(8);
    }
  });

  it('gives every tool a strict { marker: string } schema', () => {
    const [spec] = fakeToolSpecs(1);
    expect(spec!.inputSchema).toMatchObject({
      type: 'object',
      properties: { marker: { type: 'string' } },
      required: ['marker'],
      additionalProperties: false,
    });
  });

  it('rejects a count it cannot make distinct', () => {
    expect(() => fakeToolSpecs(0)).toThrow(RangeError);
    expect(() => fakeToolSpecs(100_000)).toThrow(/expected an integer from 1 to 4000/);
  });
});

describe('writeFakePlugin', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('[H2] writes a module that loads by path and whose tools echo their input', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fake-plugin-'));
    dirs.push(dir);
    const written = await writeFakePlugin({ dir, count: 30 });
    const loaded = (await import(pathToFileURL(written.path).href)) as {
      name: string;
      tools: Array<{ name: string; inputSchema: unknown; execute(input: unknown): Promise<string> }>;
    };
    expect(loaded.name).toBe('fakeplugin');
    expect(loaded.tools).toHaveLength(30);
    const tool = loaded.tools[7]!;
    expect(tool.name).toBe(written.tools[7]!.name);
    expect(tool.inputSchema).toEqual(written.tools[7]!.inputSchema);
    expect(await tool.execute({ marker: 'm-1' })).toBe(`FAKE_PLUGIN_OK ${tool.name} {"marker":"m-1"}`);
  });
});

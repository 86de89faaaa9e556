import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isGatewayAdapterError } from '../errors.js';
import { loadPluginTools } from './load-plugin-tools.js';

const folder = mkdtempSync(join(tmpdir(), 'gw-plugins-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function plugin(file: string, source: string): string {
  const path = join(folder, file);
  writeFileSync(path, source);
  return path;
}

describe('loadPluginTools', () => {
  it('loads a `tools` export and names the plugin after its file', async () => {
    const path = plugin('weather-plugin.mjs', "export const tools = [{ name: 'forecast', execute: () => 'sunny' }];");
    const [loaded] = await loadPluginTools([path]);
    expect(loaded?.name).toBe('weather-plugin');
    expect(loaded?.tools.map((tool) => tool.name)).toEqual(['forecast']);
  });

  it('loads a default export of `{ name, tools }`', async () => {
    const path = plugin('named.mjs', "export default { name: 'calendar', tools: [{ name: 'add_event', execute: () => 1 }] };");
    const [loaded] = await loadPluginTools([path]);
    expect(loaded?.name).toBe('calendar');
  });

  it('loads a default export that is an async factory', async () => {
    const path = plugin('factory.mjs', "export default async () => [{ name: 'a', execute: () => 1 }, { name: 'b', execute: () => 2 }];");
    const [loaded] = await loadPluginTools([{ path, name: 'explicit' }]);
    expect(loaded).toMatchObject({ name: 'explicit', path });
    expect(loaded?.tools).toHaveLength(2);
  });

  it('resolves relative paths against cwd', async () => {
    plugin('relative.mjs', "export const tools = [{ name: 'r', execute: () => 1 }];");
    const [loaded] = await loadPluginTools(['./relative.mjs'], { cwd: folder });
    expect(loaded?.path).toBe(join(folder, 'relative.mjs'));
  });

  it('fails with the path when the module does not exist', async () => {
    const error = await loadPluginTools([join(folder, 'missing.mjs')]).catch((caught: unknown) => caught);
    expect(isGatewayAdapterError(error) && error.code).toBe('plugin_load_failed');
    expect(isGatewayAdapterError(error) && error.path).toBe('sources.plugins[0]');
    expect((error as Error).message).toContain('missing.mjs');
  });

  it('fails when a tool has no execute function', async () => {
    const path = plugin('broken.mjs', "export const tools = [{ name: 'x' }];");
    const error = await loadPluginTools([path]).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe(`Plugin ${path}: tool [0] must be an object with a string \`name\` and an \`execute\` function`);
  });

  it('fails when the module exports no tools', async () => {
    const path = plugin('empty.mjs', 'export const nothing = 1;');
    const error = await loadPluginTools([path]).catch((caught: unknown) => caught);
    expect(isGatewayAdapterError(error) && error.code).toBe('plugin_load_failed');
  });
});

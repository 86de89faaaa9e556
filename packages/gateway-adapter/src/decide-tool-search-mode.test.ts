import { describe, expect, it } from 'vitest';
import { decideToolSearchMode } from './decide-tool-search-mode.js';
import { resolveToolSearchConfig } from './resolve-tool-search-config.js';

describe('decideToolSearchMode', () => {
  it('keeps code mode when the runtime probe passes', async () => {
    const decision = await decideToolSearchMode(resolveToolSearchConfig(true), {
      probe: async () => ({ ok: true, engine: 'node', nodePath: '/bin/node26', version: '26.12.1', isolation: 'os' }),
    });
    expect(decision).toEqual({
      mode: 'code',
      requestedMode: 'code',
      runtime: { engine: 'node', nodePath: '/bin/node26', version: '26.12.1', isolation: 'os' },
    });
  });

  it('keeps code mode on the QuickJS engine when that is what the probe found', async () => {
    const decision = await decideToolSearchMode(resolveToolSearchConfig(true), {
      probe: async () => ({ ok: true, engine: 'quickjs', nodePath: process.execPath, version: 'quickjs-emscripten 0.32.0', isolation: 'wasm' }),
    });
    expect(decision).toMatchObject({ mode: 'code', runtime: { engine: 'quickjs', isolation: 'wasm' } });
  });

  it('falls back to tools mode with the reason when the probe fails', async () => {
    const decision = await decideToolSearchMode(resolveToolSearchConfig(true), {
      probe: async () => ({ ok: false, reason: 'no Node >= 26.12.1 found' }),
    });
    expect(decision).toEqual({ mode: 'tools', requestedMode: 'code', fallbackReason: 'no Node >= 26.12.1 found' });
  });

  it('falls back to tools mode when the probe throws', async () => {
    const decision = await decideToolSearchMode(resolveToolSearchConfig(true), {
      probe: async () => {
        throw new Error('spawn failed');
      },
    });
    expect(decision).toEqual({ mode: 'tools', requestedMode: 'code', fallbackReason: 'runtime probe threw: spawn failed' });
  });

  it('never probes for the other modes', async () => {
    let probed = 0;
    const probe = async () => {
      probed += 1;
      return { ok: false as const, reason: 'x' };
    };
    expect((await decideToolSearchMode(resolveToolSearchConfig({ mode: 'directory' }), { probe })).mode).toBe('directory');
    expect((await decideToolSearchMode(resolveToolSearchConfig(false), { probe })).mode).toBe('direct');
    expect(probed).toBe(0);
  });
});

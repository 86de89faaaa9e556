import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isE2eError } from './errors.js';
import { loadGatewayConfig, parseGatewayConfig } from './load-gateway-config.js';

describe('loadGatewayConfig', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gateway-config-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('[H4] reads JSON5 with comments and resolves plugin and state paths against the file', async () => {
    const path = join(dir, 'gateway.json5');
    await writeFile(
      path,
      `{
        // the provider
        provider: { baseURL: 'http://127.0.0.1:9/v1', api: 'chat' },
        plugins: ['./plugins/fake.mjs'],
        tools: { toolSearch: { mode: 'tools' } },
        policy: { deny: ['plugin:*:secret_*'] },
      }`,
    );
    const config = await loadGatewayConfig(path);
    expect(config.provider).toEqual({ baseURL: 'http://127.0.0.1:9/v1', api: 'chat', model: 'mock-model', apiKey: 'no-key', stream: false });
    expect(config.plugins).toEqual([join(dir, 'plugins/fake.mjs')]);
    expect(config.stateDir).toBe(join(dir, 'state'));
    expect(config.tools.toolSearch).toEqual({ mode: 'tools' });
    expect(config.policy).toEqual({ deny: ['plugin:*:secret_*'] });
    expect(config.agent.maxTurns).toBe(8);
  });

  it('fails on a file that is not JSON5', async () => {
    const path = join(dir, 'broken.json5');
    await writeFile(path, '{ provider: ');
    await expect(loadGatewayConfig(path)).rejects.toThrow(/is not JSON5/);
  });
});

describe('parseGatewayConfig', () => {
  it('[H4] rejects an unknown key with its path', () => {
    let caught: unknown;
    try {
      parseGatewayConfig({ provider: { baseURL: 'http://127.0.0.1:9/v1', apii: 'chat' } }, '/');
    } catch (error) {
      caught = error;
    }
    expect(isE2eError(caught) && caught.code).toBe('config_invalid');
    expect((caught as Error).message).toMatch(/^invalid gateway config: provider: .*apii/);
  });

  it('rejects a wrong wire format', () => {
    expect(() => parseGatewayConfig({ provider: { baseURL: 'http://127.0.0.1:9/v1', api: 'gemini' } }, '/')).toThrow(/provider\.api/);
  });

  it('[H4] accepts the Anthropic Messages wire format', () => {
    expect(parseGatewayConfig({ provider: { baseURL: 'http://127.0.0.1:9', api: 'anthropic', stream: true } }, '/').provider).toEqual({
      baseURL: 'http://127.0.0.1:9',
      api: 'anthropic',
      model: 'mock-model',
      apiKey: 'no-key',
      stream: true,
    });
  });
});

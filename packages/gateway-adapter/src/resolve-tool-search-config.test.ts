import { DEFAULT_CODE_TIMEOUT_MS } from '@tool-search/modes';
import { DEFAULT_LIMITS } from '@tool-search/sandbox-runner';
import { describe, expect, it } from 'vitest';
import { isGatewayAdapterError } from './errors.js';
import { resolveToolSearchConfig, TOOL_SEARCH_DEFAULTS } from './resolve-tool-search-config.js';

function errorOf(run: () => unknown): { code: string; path: string | undefined; message: string } {
  try {
    run();
  } catch (error) {
    if (isGatewayAdapterError(error)) return { code: error.code, path: error.path, message: error.message };
    throw error;
  }
  throw new Error('expected an error');
}

describe('resolveToolSearchConfig', () => {
  it('resolves true to code mode with the default limits and timeout', () => {
    expect(resolveToolSearchConfig(true)).toEqual({
      kind: 'resolved-tool-search-config',
      mode: 'code',
      codeTimeoutMs: 10_000,
      searchDefaultLimit: 8,
      maxSearchLimit: 20,
      directory: {},
      auto: { maxTools: 30, maxBytes: 40_000, searchMode: 'code' },
      nativeSearch: { anthropic: 'client', chat: 'tools', maxLoaded: 32 },
    });
  });

  it('resolves false and undefined to direct mode, reason disabled', () => {
    expect(resolveToolSearchConfig(false)).toMatchObject({ mode: 'direct', directReason: 'disabled' });
    expect(resolveToolSearchConfig(undefined)).toMatchObject({ mode: 'direct', directReason: 'disabled' });
  });

  it('resolves the object form with its mode and directory options', () => {
    const resolved = resolveToolSearchConfig({ mode: 'directory', directory: { maxChars: 4000 }, searchDefaultLimit: 5 });
    expect(resolved).toMatchObject({ mode: 'directory', searchDefaultLimit: 5, maxSearchLimit: 20, directory: { maxChars: 4000 } });
  });

  it('defaults the object form to code mode', () => {
    expect(resolveToolSearchConfig({}).mode).toBe('code');
  });

  it('clamps the code timeout to 1,000–60,000 ms', () => {
    expect(resolveToolSearchConfig({ codeTimeoutMs: 5 }).codeTimeoutMs).toBe(1_000);
    expect(resolveToolSearchConfig({ codeTimeoutMs: 600_000 }).codeTimeoutMs).toBe(60_000);
    expect(resolveToolSearchConfig({ codeTimeoutMs: 2_500 }).codeTimeoutMs).toBe(2_500);
  });

  it('clamps the maximum search limit to the ceiling of 50 and the default to the maximum', () => {
    expect(resolveToolSearchConfig({ maxSearchLimit: 500, searchDefaultLimit: 400 })).toMatchObject({ maxSearchLimit: 50, searchDefaultLimit: 50 });
    expect(resolveToolSearchConfig({ maxSearchLimit: 5 })).toMatchObject({ maxSearchLimit: 5, searchDefaultLimit: 5 });
  });

  it('rejects an unknown key with its path', () => {
    expect(errorOf(() => resolveToolSearchConfig({ mdoe: 'tools' }))).toMatchObject({ code: 'invalid_config', path: 'toolSearch' });
    expect(errorOf(() => resolveToolSearchConfig({ directory: { maxchars: 3 } })).message).toContain('toolSearch.directory');
  });

  it('rejects a wrong type with its path', () => {
    expect(errorOf(() => resolveToolSearchConfig({ searchDefaultLimit: 2.5 }))).toMatchObject({ code: 'invalid_config', path: 'toolSearch.searchDefaultLimit' });
    expect(errorOf(() => resolveToolSearchConfig('yes')).code).toBe('invalid_config');
  });

  it('rejects a mode that does not exist', () => {
    expect(errorOf(() => resolveToolSearchConfig({ mode: 'direct' }))).toMatchObject({ path: 'toolSearch.mode' });
  });

  it('renders direct with reason native when the harness has its own tool search', () => {
    expect(resolveToolSearchConfig({ native: true, mode: 'tools' })).toMatchObject({ mode: 'direct', directReason: 'native' });
  });

  it('lets TOOL_SEARCH_MODE override the setting', () => {
    expect(resolveToolSearchConfig(true, { TOOL_SEARCH_MODE: 'tools' }).mode).toBe('tools');
    expect(resolveToolSearchConfig(true, { TOOL_SEARCH_MODE: 'off' })).toMatchObject({ mode: 'direct', directReason: 'disabled' });
    expect(resolveToolSearchConfig(false, { TOOL_SEARCH_MODE: 'harness' })).toMatchObject({ mode: 'direct', directReason: 'native' });
    expect(resolveToolSearchConfig(false, { TOOL_SEARCH_MODE: 'native' }).mode).toBe('native');
    expect(resolveToolSearchConfig(false, { TOOL_SEARCH_MODE: 'auto' }).mode).toBe('auto');
  });

  it('resolves the auto thresholds: given, from the context window (10%, 4 bytes a token), or the defaults', () => {
    expect(resolveToolSearchConfig({ mode: 'auto' }).auto).toEqual({ maxTools: 30, maxBytes: 40_000, searchMode: 'code' });
    expect(resolveToolSearchConfig({ mode: 'auto', contextWindowTokens: 200_000 }).auto).toEqual({ maxTools: 30, maxBytes: 80_000, searchMode: 'code' });
    expect(resolveToolSearchConfig({ mode: 'auto', contextWindowTokens: 200_000 }).directory).toEqual({ contextWindowTokens: 200_000 });
    expect(resolveToolSearchConfig({ mode: 'auto', auto: { maxTools: 5, maxBytes: 1_000, searchMode: 'tools' } }).auto).toEqual({ maxTools: 5, maxBytes: 1_000, searchMode: 'tools' });
    expect(errorOf(() => resolveToolSearchConfig({ mode: 'auto', auto: { searchMode: 'direct' } }))).toMatchObject({ path: 'toolSearch.auto.searchMode' });
    expect(errorOf(() => resolveToolSearchConfig({ auto: { maxTool: 3 } }))).toMatchObject({ path: 'toolSearch.auto' });
  });

  it('resolves the native search choice, ours by default', () => {
    expect(resolveToolSearchConfig({ mode: 'native' }).nativeSearch).toEqual({ anthropic: 'client', chat: 'tools', maxLoaded: 32 });
    expect(resolveToolSearchConfig({ mode: 'native', nativeSearch: { anthropic: 'bm25' } }).nativeSearch).toEqual({ anthropic: 'bm25', chat: 'tools', maxLoaded: 32 });
    expect(resolveToolSearchConfig({ mode: 'native', nativeSearch: { chat: 'load', maxLoaded: 8 } }).nativeSearch).toEqual({ anthropic: 'client', chat: 'load', maxLoaded: 8 });
  });

  it('rejects an unknown TOOL_SEARCH_MODE naming the variable', () => {
    expect(errorOf(() => resolveToolSearchConfig(true, { TOOL_SEARCH_MODE: 'fast' }))).toMatchObject({
      code: 'invalid_config',
      path: 'env.TOOL_SEARCH_MODE',
    });
  });

  it('returns an already resolved config unchanged', () => {
    const resolved = resolveToolSearchConfig({ mode: 'tools' });
    expect(resolveToolSearchConfig(resolved)).toBe(resolved);
  });
});

describe('TOOL_SEARCH_DEFAULTS', () => {
  it("takes the code timeout from the sandbox runner, and modes' fallback for the tool text agrees with it", () => {
    expect(TOOL_SEARCH_DEFAULTS.codeTimeoutMs).toBe(DEFAULT_LIMITS.timeoutMs);
    expect(DEFAULT_CODE_TIMEOUT_MS).toBe(DEFAULT_LIMITS.timeoutMs);
  });
});

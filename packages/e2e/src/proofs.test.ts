// The comparison proofs for every wire format: one comparison run per format (every mode), shared by the tests,
// plus a native-only run per native format over its other transport, so native mode is proven with JSON and SSE.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_SEARCH_DEFAULTS } from '@tool-search/gateway-adapter';
import { NATIVE_CHAT_FALLBACK_REASON } from '@tool-search/modes';
import { fakeToolSpecs } from './write-fake-plugin.js';
import { MCP_FIXTURE_TOOL_COUNT } from './mcp-fixture.js';
import type { ProviderApi } from './resolve-script-reply.js';
import { runComparison, type ComparisonResult, type ModeReport } from './run-comparison.js';
import type { ComparisonMode } from './write-gateway-config.js';
import { scaledTimeout } from '@tool-search/property-settings';

const FORMATS = [
  { api: 'responses' as const, stream: false },
  { api: 'chat' as const, stream: true },
  { api: 'anthropic' as const, stream: true },
];

const TARGET = fakeToolSpecs()[421]!;
const TARGET_ID = `plugin:fakeplugin:${TARGET.name}`;
const CLIENT_TOOL_NAMES = ['client_show_notification', 'client_open_document', 'client_request_confirmation'];
const CATALOG_SIZE = 1_000 + MCP_FIXTURE_TOOL_COUNT;
/** What native mode puts in the model's context before a search: its search tool and the client tools. */
const NATIVE_UP_FRONT = 1 + CLIENT_TOOL_NAMES.length;

let root: string | undefined;
const comparisons = new Map<string, Promise<ComparisonResult>>();

/** One comparison run per wire format, transport and mode list, shared by every test that needs it. */
function comparison(api: ProviderApi, stream: boolean, modes?: readonly ComparisonMode[]): Promise<ComparisonResult> {
  const key = `${api}-${stream ? 'sse' : 'json'}${modes ? `-${modes.join('-')}` : ''}`;
  let run = comparisons.get(key);
  if (run === undefined) {
    run = (async () => {
      root ??= await mkdtemp(join(tmpdir(), 'e2e-proofs-'));
      return runComparison({ outDir: join(root, key), api, stream, ...(modes ? { modes } : {}) });
    })();
    comparisons.set(key, run);
  }
  return run;
}

function modeReport(result: ComparisonResult, mode: ComparisonMode): ModeReport {
  const found = result.reports.find((candidate) => candidate.mode === mode);
  if (!found) throw new Error(`no ${mode} report over ${result.api}`);
  return found;
}

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

function declaredToolNames(result: ComparisonResult, requestBody: string): string[] {
  const body = JSON.parse(requestBody) as { tools: Array<{ name?: string; function?: { name: string } }> };
  return body.tools.map((tool) => (result.api === 'chat' ? tool.function!.name : tool.name!));
}

describe.each(FORMATS)('runComparison over $api (stream: $stream)', ({ api, stream }) => {
  let result: ComparisonResult;
  const report = (mode: ComparisonMode): ModeReport => modeReport(result, mode);

  beforeAll(async () => {
    result = await comparison(api, stream);
  }, scaledTimeout(240_000));

  it('[P1] direct mode calls the fake plugin tool', () => {
    const direct = report('direct');
    expect(direct.finalTool).toEqual({ id: TARGET_ID, source: 'plugin', via: 'direct', status: 'ok' });
    expect(direct.finalText).toBe(`Done: ${TARGET.name} answered FAKE_PLUGIN_OK.`);
    expect(direct.providerRules).toEqual(['direct-call', 'finish']);
  });

  it.each(['code', 'tools', 'directory'] as const)('[P2] %s mode calls the same fake plugin tool', (mode) => {
    const run = report(mode);
    expect(run.renderedMode).toBe(mode);
    expect(run.finalTool).toEqual({ id: TARGET_ID, source: 'plugin', via: mode === 'code' ? 'code' : 'tool_call', status: 'ok' });
    expect(run.finalText).toBe(`Done: ${TARGET.name} answered FAKE_PLUGIN_OK.`);
    expect(run.providerRules).toEqual(mode === 'code' ? ['code-run', 'finish'] : ['search', 'describe', 'call', 'finish']);
  });

  it('[P3] direct mode sends every fake plugin schema to the provider', () => {
    const direct = report('direct');
    expect(direct.fakeSchemasInFirstRequest).toBe(1_000);
    expect(direct.schemasUpFront).toBe(CATALOG_SIZE + CLIENT_TOOL_NAMES.length);
    expect(direct.toolsDeclared).toBe(CATALOG_SIZE + CLIENT_TOOL_NAMES.length);
  });

  it('[P3] direct mode declares the target with its exact schema', () => {
    const direct = report('direct');
    const body = JSON.parse(direct.firstRequestBody) as { tools: Array<Record<string, unknown>> };
    const declared = body.tools.find((tool) =>
      api === 'chat' ? (tool.function as { name: string }).name === TARGET.name : tool.name === TARGET.name,
    );
    const SCHEMA_OF: Record<ProviderApi, () => unknown> = {
      chat: () => (declared?.function as { parameters: unknown }).parameters,
      responses: () => declared?.parameters,
      anthropic: () => declared?.input_schema,
    };
    expect(SCHEMA_OF[api]()).toEqual(TARGET.inputSchema);
  });

  it.each(['code', 'tools', 'directory'] as const)('[P4] %s mode sends only the compact surface', (mode) => {
    const run = report(mode);
    expect(run.fakeSchemasInFirstRequest).toBe(0);
    // The only full schemas up front are the client tools sent with the request.
    expect(run.schemasUpFront).toBe(CLIENT_TOOL_NAMES.length);
    // Code mode never describes; tools and directory modes see exactly the described target's schema, later.
    expect(run.fakeSchemaTokensInAnyRequest).toEqual(mode === 'code' ? [] : [TARGET.schemaToken]);
    const control = mode === 'code' ? ['tool_search_code'] : ['tool_search', 'tool_describe', 'tool_call'];
    expect(declaredToolNames(result, run.firstRequestBody).sort()).toEqual([...control, ...CLIENT_TOOL_NAMES].sort());
  });

  it.each(['code', 'tools'] as const)('[P5] %s mode request body is at most 2 percent of direct at 1,000 tools', (mode) => {
    const ratio = report(mode).firstRequestBytes / report('direct').firstRequestBytes;
    expect(report('direct').firstRequestBytes).toBeGreaterThan(100_000);
    expect(ratio).toBeLessThanOrEqual(0.02);
  });

  it('[P6] session logs show the expected call counts per mode', () => {
    expect(report('direct')).toMatchObject({ searches: 0, describes: 0, calls: 1, codeRuns: 0 });
    expect(report('code')).toMatchObject({ searches: 1, describes: 0, calls: 1, codeRuns: 1 });
    expect(report('tools')).toMatchObject({ searches: 1, describes: 1, calls: 1, codeRuns: 0 });
    expect(report('directory')).toMatchObject({ searches: 1, describes: 1, calls: 1, codeRuns: 0 });
    // Native: the provider's search answered by the session, then the loaded target called by name (tools mode on chat).
    expect(report('native')).toMatchObject(
      api === 'chat' ? { searches: 1, describes: 1, calls: 1, nativeSearches: 0 } : { searches: 1, describes: 0, calls: 1, nativeSearches: 1 },
    );
  });

  it.each(['direct', 'code', 'tools', 'directory', 'native'] as const)('[P6] the %s session log closes with a summary of the same counts', (mode) => {
    const run = report(mode);
    expect(run.summaryCounts).toMatchObject({ searches: run.searches, describes: run.describes, calls: run.calls, codeRuns: run.codeRuns });
  });

  it('[P6] session logs show the bridge telemetry of the code run', () => {
    const code = report('code');
    expect(code.bridge).toEqual({ searches: 1, describes: 0, calls: 1 });
    expect(code.codeRunBridgeCalls).toEqual({ search: 1, describe: 0, call: 1 });
    expect(code.telemetry.counts).toMatchObject({ searches: 1, calls: 1, codeRuns: 1 });
    expect(code.telemetry.calls).toEqual([expect.objectContaining({ toolId: TARGET_ID, source: 'plugin', via: 'code', status: 'ok' })]);
  });

  it('[N4] native mode declares every allowed schema, and only the search hits reach the model context', () => {
    const native = report('native');
    if (api === 'chat') {
      // No deferral on chat: the tools fallback is as compact as tools mode.
      expect(native.fakeSchemasInFirstRequest).toBe(0);
      expect(native.schemasPerTurn).toEqual(report('tools').schemasPerTurn);
      return;
    }
    const loaded = native.nativeLoadedIds.length;
    expect(native.fakeSchemasInFirstRequest).toBe(1_000);
    expect(native.firstRequestBytes).toBeGreaterThan(report('direct').firstRequestBytes);
    expect(native.schemasPerTurn).toEqual([
      { declared: NATIVE_UP_FRONT + CATALOG_SIZE, deferred: CATALOG_SIZE, loaded: 0, inContext: NATIVE_UP_FRONT },
      { declared: NATIVE_UP_FRONT + CATALOG_SIZE, deferred: CATALOG_SIZE, loaded, inContext: NATIVE_UP_FRONT + loaded },
      { declared: NATIVE_UP_FRONT + CATALOG_SIZE, deferred: CATALOG_SIZE, loaded, inContext: NATIVE_UP_FRONT + loaded },
    ]);
    expect(loaded).toBeGreaterThan(0);
    expect(loaded).toBeLessThanOrEqual(TOOL_SEARCH_DEFAULTS.searchDefaultLimit);
    expect(native.schemasUpFront).toBe(CLIENT_TOOL_NAMES.length);
    expect(native.telemetry.surface).toMatchObject({ deferredTools: CATALOG_SIZE, schemasUpFront: CLIENT_TOOL_NAMES.length });
    expect(native.telemetry.counts.nativeLoads).toBe(loaded);
  });

  it('evaluates every proof as passed', () => {
    expect(result.proofs.filter((proof) => !proof.ok)).toEqual([]);
    const native = api === 'responses' ? 'N1' : api === 'anthropic' ? 'N2' : 'N3';
    expect(new Set(result.proofs.map((proof) => proof.id))).toEqual(new Set(['P1', 'P2', 'P3', 'P4', 'P5', 'P6', native, 'N4']));
  });
});

/** Native mode over a format with deferral: the provider's search, answered by our catalog, then a call by name. */
function expectNativeRun(result: ComparisonResult): ModeReport {
  const native = modeReport(result, 'native');
  expect(native.renderedMode).toBe('native');
  expect(native.providerRules).toEqual(['native-search', 'native-call', 'finish']);
  expect(native.finalTool).toEqual({ id: TARGET_ID, source: 'plugin', via: 'native', status: 'ok' });
  expect(native.finalText).toBe(`Done: ${TARGET.name} answered FAKE_PLUGIN_OK.`);
  expect(native.nativeSearches).toBe(1);
  expect(native.nativeLoadedIds).toContain(TARGET_ID);
  expect(result.proofs.filter((proof) => proof.id.startsWith('N') && !proof.ok)).toEqual([]);
  return native;
}

describe('native mode over OpenAI Responses', () => {
  it.each([false, true])('[N1] finds the target with one client tool search our catalog answers, then calls it by name (stream: %s)', async (stream) => {
    const result = stream ? await comparison('responses', true, ['native']) : await comparison('responses', false);
    const native = expectNativeRun(result);
    // The functions are deferred inside namespaces; the search tool is OpenAI's, executed by the client.
    const body = JSON.parse(native.firstRequestBody) as { tools: Array<{ type: string; name?: string; execution?: string }> };
    expect(body.tools.filter((tool) => tool.type === 'tool_search')).toEqual([expect.objectContaining({ execution: 'client' })]);
    expect(body.tools.filter((tool) => tool.type === 'namespace').map((tool) => tool.name)).toEqual(['fakeplugin', 'fixture']);
  }, scaledTimeout(240_000));
});

describe('native mode over Anthropic Messages', () => {
  it.each([false, true])('[N2] loads the target through tool_reference blocks our search returns, then calls it by name (stream: %s)', async (stream) => {
    const result = stream ? await comparison('anthropic', true) : await comparison('anthropic', false, ['native']);
    const native = expectNativeRun(result);
    const body = JSON.parse(native.firstRequestBody) as { tools: Array<{ name: string; defer_loading?: boolean }> };
    expect(body.tools.filter((tool) => tool.defer_loading !== true).map((tool) => tool.name).sort()).toEqual(['tool_search', ...CLIENT_TOOL_NAMES].sort());
  }, scaledTimeout(240_000));
});

describe('deferral on a chat endpoint: the demo\'s native (chat load) row', () => {
  it('[N6] declares no catalog schema up front, loads the target after the same bytes and calls it by name', async () => {
    root ??= await mkdtemp(join(tmpdir(), 'e2e-proofs-'));
    const result = await runComparison({ outDir: join(root, 'chat-load'), api: 'responses', modes: [], chatLoad: true });
    const row = result.reports.find((report) => report.variant === 'chat-load');
    expect(row).toMatchObject({ renderedMode: 'native', fakeSchemasInFirstRequest: 0, toolsAppendOnly: true, providerRules: ['search', 'chat-load-call', 'finish'] });
    expect(row?.finalTool).toEqual({ id: TARGET_ID, source: 'plugin', via: 'native', status: 'ok' });
    expect(row?.toolNamesPerRequest[0]).not.toContain(TARGET.name);
    expect(row?.toolNamesPerRequest[1]?.some((name) => name.endsWith(TARGET.name))).toBe(true);
    expect(result.proofs.filter((proof) => proof.id === 'N6')).toEqual([expect.objectContaining({ ok: true })]);
  }, scaledTimeout(240_000));
});

describe('native mode over OpenAI Chat Completions', () => {
  let native: ModeReport;
  beforeAll(async () => {
    native = modeReport(await comparison('chat', true), 'native');
  }, scaledTimeout(240_000));

  it('[N3] falls back to tools mode and still calls the target', () => {
    expect(native.renderedMode).toBe('tools');
    expect(native.providerRules).toEqual(['search', 'describe', 'call', 'finish']);
    expect(native.finalTool).toEqual({ id: TARGET_ID, source: 'plugin', via: 'tool_call', status: 'ok' });
  });

  it('[N3] records why it fell back to tools mode in the session log', () => {
    expect(native.fallbackReason).toBe(NATIVE_CHAT_FALLBACK_REASON);
  });
});

import { describe, expect, it } from 'vitest';
import { formatComparisonReport } from './format-comparison-report.js';
import { evaluateProofs, type ComparisonResult, type ModeReport } from './run-comparison.js';
import type { ComparisonMode } from './write-gateway-config.js';

const TARGET = 'fake_forecast_firmware_aurora';
const TARGET_ID = `plugin:fakeplugin:${TARGET}`;
const TASK = { target: TARGET, query: 'Forecast device firmware rollouts', marker: 'm', prompt: 'Forecast device firmware rollouts.' };

/** Schema counts of one provider request: declared, deferred, loaded. */
const turn = (declared: number, deferred = 0, loaded = 0) => ({ declared, deferred, loaded, inContext: declared - deferred + loaded });

const NATIVE_TURNS = [turn(1_036, 1_032), turn(1_036, 1_032, 8), turn(1_036, 1_032, 8)];

function report(mode: ComparisonMode, overrides: Partial<ModeReport> = {}): ModeReport {
  const native = mode === 'native';
  const search = mode === 'direct' ? 0 : 1;
  const describes = mode === 'tools' || mode === 'directory' ? 1 : 0;
  return {
    mode,
    toolNamesPerRequest: [],
    toolsAppendOnly: true,
    renderedMode: mode,
    fallbackReason: undefined,
    providerRequests: mode === 'direct' || mode === 'code' ? 2 : native ? 3 : 4,
    firstRequestBytes: mode === 'direct' ? 400_000 : mode === 'directory' ? 15_000 : native ? 420_000 : 2_700,
    firstRequestBody: '{}',
    totalRequestBytes: mode === 'direct' ? 800_000 : native ? 1_260_000 : 20_000,
    toolsDeclared: mode === 'direct' ? 1_035 : native ? 6 : 4,
    instructionChars: mode === 'direct' ? 0 : 250,
    schemasPerTurn: native ? NATIVE_TURNS : mode === 'direct' ? [turn(1_035), turn(1_035)] : [turn(6), turn(6), turn(6), turn(6)],
    schemasUpFront: mode === 'direct' ? 1_035 : 3,
    fakeSchemasInFirstRequest: mode === 'direct' || native ? 1_000 : 0,
    fakeSchemaTokensInAnyRequest: mode === 'tools' || mode === 'directory' ? ['FAKE_SCHEMA_0421'] : mode === 'direct' ? ['many'] : [],
    searches: search,
    describes,
    calls: 1,
    codeRuns: mode === 'code' ? 1 : 0,
    nativeSearches: native ? 1 : 0,
    nativeLoadedIds: native ? [TARGET_ID, ...Array.from({ length: 7 }, (_, index) => `plugin:fakeplugin:other_${index}`)] : [],
    bridge: mode === 'code' ? { searches: 1, describes: 0, calls: 1 } : { searches: 0, describes: 0, calls: 0 },
    codeRunBridgeCalls: mode === 'code' ? { search: 1, describe: 0, call: 1 } : undefined,
    summaryCounts: { searches: search, describes, calls: 1 },
    finalTool: { id: TARGET_ID, source: 'plugin', via: mode === 'direct' ? 'direct' : native ? 'native' : mode === 'code' ? 'code' : 'tool_call', status: 'ok' },
    finalText: `Done: ${TARGET} answered FAKE_PLUGIN_OK.`,
    providerRules: native ? ['native-search', 'native-call', 'finish'] : [],
    wallTimeMs: 1_000,
    sessionLogPath: `/state/${mode}/sessions/x.jsonl`,
    telemetry: { catalog: { size: 1_032, sources: { plugin: 1_000, mcp: 32 } } } as unknown as ModeReport['telemetry'],
    ...overrides,
  };
}

const ALL_MODES: ComparisonMode[] = ['direct', 'code', 'tools', 'directory', 'native'];
const API = 'responses' as const;

/** A run of native mode with chat loading over OpenAI Chat that reached the target as it should. */
const chatLoad = (overrides: Partial<ModeReport> = {}): ModeReport =>
  report('native', {
    variant: 'chat-load',
    fakeSchemasInFirstRequest: 0,
    toolNamesPerRequest: [['tool_search', 'client_show_notification'], ['tool_search', 'client_show_notification', TARGET], ['tool_search', 'client_show_notification', TARGET]],
    toolsAppendOnly: true,
    providerRules: ['search', 'chat-load-call', 'finish'],
    ...overrides,
  });

describe('evaluateProofs: deferral on a chat endpoint (N6)', () => {
  const n5 = (reports: ModeReport[]) => evaluateProofs({ api: API, reports, toolCount: 1_000, task: TASK }).filter((proof) => proof.id === 'N6');

  it('is proved only when the chat-load row ran, and passes when the target was loaded after the same bytes and called by name', () => {
    expect(n5(ALL_MODES.map((mode) => report(mode)))).toEqual([]);
    expect(n5([...ALL_MODES.map((mode) => report(mode)), chatLoad()])).toEqual([expect.objectContaining({ id: 'N6', ok: true })]);
    // The row does not stand in for native mode's own run in N1 and N4.
    const all = evaluateProofs({ api: API, reports: [...ALL_MODES.map((mode) => report(mode)), chatLoad()], toolCount: 1_000, task: TASK });
    expect(all.filter((proof) => !proof.ok)).toEqual([]);
  });

  it('fails when the tools were not append-only, the target was declared up front, or the model did not call it by name', () => {
    for (const bad of [
      chatLoad({ toolsAppendOnly: false }),
      chatLoad({ toolNamesPerRequest: [['tool_search', TARGET], ['tool_search', TARGET]] }),
      chatLoad({ fakeSchemasInFirstRequest: 1_000 }),
      chatLoad({ providerRules: ['search', 'describe', 'call', 'finish'] }),
      chatLoad({ renderedMode: 'tools' }),
    ]) {
      expect(n5([bad])).toEqual([expect.objectContaining({ id: 'N6', ok: false })]);
    }
  });

  it('labels the row in the report', () => {
    const text = formatComparisonReport({ api: API, stream: false, toolCount: 1_000, task: TASK, reports: [...ALL_MODES.map((mode) => report(mode)), chatLoad()], proofs: [], summaryPath: '/x' });
    expect(text).toContain('| native (chat load)');
    expect(text).toContain("Native (chat load): deferral on a chat endpoint");
  });
});

describe('evaluateProofs', () => {
  it('[H5] passes every proof for five good reports', () => {
    const proofs = evaluateProofs({ api: API, reports: ALL_MODES.map((mode) => report(mode)), toolCount: 1_000, task: TASK });
    expect(proofs.filter((proof) => !proof.ok)).toEqual([]);
    expect(proofs.map((proof) => proof.id)).toEqual(['P1', 'P2', 'P2', 'P2', 'P3', 'P4', 'P4', 'P4', 'P5', 'P5', 'P6', 'P6', 'P6', 'P6', 'P6', 'N1', 'N4']);
  });

  it('[H5] names the native proof after the wire format, and expects the tools fallback on chat', () => {
    const chatNative = report('native', {
      renderedMode: 'tools',
      describes: 1,
      summaryCounts: { searches: 1, describes: 1, calls: 1 },
      nativeSearches: 0,
      nativeLoadedIds: [],
      fakeSchemasInFirstRequest: 0,
      providerRules: ['search', 'describe', 'call', 'finish'],
      finalTool: { id: TARGET_ID, source: 'plugin', via: 'tool_call', status: 'ok' },
    });
    const reports = [...ALL_MODES.filter((mode) => mode !== 'native').map((mode) => report(mode)), chatNative];
    const chat = evaluateProofs({ api: 'chat', reports, toolCount: 1_000, task: TASK });
    expect(chat.filter((proof) => !proof.ok)).toEqual([]);
    expect(chat.slice(-2).map((proof) => proof.id)).toEqual(['N3', 'N4']);
    const anthropic = evaluateProofs({ api: 'anthropic', reports: ALL_MODES.map((mode) => report(mode)), toolCount: 1_000, task: TASK });
    expect(anthropic.filter((proof) => !proof.ok)).toEqual([]);
    expect(anthropic.slice(-2).map((proof) => proof.id)).toEqual(['N2', 'N4']);
    // Native rendered as tools over a format that has deferral fails its proof.
    const fellBack = evaluateProofs({ api: 'responses', reports, toolCount: 1_000, task: TASK }).filter((proof) => !proof.ok);
    expect([...new Set(fellBack.map((proof) => proof.id))]).toEqual(['P6', 'N1', 'N4']);
  });

  it('[H5] fails N4 when a native search loaded more than its limit, or the target is not among the loaded', () => {
    const overLimit = turn(1_036, 1_032, 9);
    const tooMany = report('native', { nativeLoadedIds: [TARGET_ID, ...Array.from({ length: 8 }, (_, index) => `x:y:z${index}`)], schemasPerTurn: [NATIVE_TURNS[0]!, overLimit, overLimit] });
    const withoutTarget = report('native', { nativeLoadedIds: Array.from({ length: 8 }, (_, index) => `x:y:z${index}`) });
    for (const native of [tooMany, withoutTarget]) {
      const reports = [...ALL_MODES.filter((mode) => mode !== 'native').map((mode) => report(mode)), native];
      const failed = evaluateProofs({ api: API, reports, toolCount: 1_000, task: TASK }).filter((proof) => !proof.ok);
      expect(failed.map((proof) => proof.id)).toEqual(['N4']);
    }
  });

  it('[H5] fails N4 when a catalog schema reaches the model context before the search', () => {
    const leaky = report('native', { schemasPerTurn: [turn(1_036, 1_031), ...NATIVE_TURNS.slice(1)] });
    const reports = [...ALL_MODES.filter((mode) => mode !== 'native').map((mode) => report(mode)), leaky];
    const failed = evaluateProofs({ api: API, reports, toolCount: 1_000, task: TASK }).filter((proof) => !proof.ok);
    expect(failed.map((proof) => proof.id)).toEqual(['N4']);
  });

  it('[H5] fails P5 when a tool-search body is over 2% of direct', () => {
    const reports = ALL_MODES.map((mode) => (mode === 'tools' ? report(mode, { firstRequestBytes: 8_001 }) : report(mode)));
    const failed = evaluateProofs({ api: API, reports, toolCount: 1_000, task: TASK }).filter((proof) => !proof.ok);
    expect(failed).toEqual([{ id: 'P5', ok: false, detail: 'tools: 8001 B vs direct 400000 B = 2.00% (limit 2%)' }]);
  });

  it('[H5] fails P2 when code mode fell back to tools mode', () => {
    const reports = ALL_MODES.map((mode) => (mode === 'code' ? report(mode, { renderedMode: 'tools' }) : report(mode)));
    const failed = evaluateProofs({ api: API, reports, toolCount: 1_000, task: TASK }).filter((proof) => !proof.ok);
    expect(failed.map((proof) => proof.id)).toEqual(['P2']);
  });

  it('[H5] fails P4 when a fake schema reaches the provider up front', () => {
    const reports = ALL_MODES.map((mode) => (mode === 'directory' ? report(mode, { fakeSchemasInFirstRequest: 1 }) : report(mode)));
    const failed = evaluateProofs({ api: API, reports, toolCount: 1_000, task: TASK }).filter((proof) => !proof.ok);
    expect(failed.map((proof) => proof.id)).toEqual(['P4']);
  });

  it('[H5] fails P1, P3, P5 and P6 when direct mode did not run (N1 and N4 do not need it)', () => {
    const reports = ALL_MODES.filter((mode) => mode !== 'direct').map((mode) => report(mode));
    const failed = evaluateProofs({ api: API, reports, toolCount: 1_000, task: TASK }).filter((proof) => !proof.ok);
    expect([...new Set(failed.map((proof) => proof.id))]).toEqual(['P1', 'P3', 'P5', 'P6']);
  });

  it('[H5] fails P6 when the session log shows an extra search', () => {
    const reports = ALL_MODES.map((mode) => (mode === 'tools' ? report(mode, { searches: 2 }) : report(mode)));
    const failed = evaluateProofs({ api: API, reports, toolCount: 1_000, task: TASK }).filter((proof) => !proof.ok);
    expect(failed.map((proof) => proof.id)).toEqual(['P6']);
  });
});

describe('formatComparisonReport', () => {
  it('[H5] prints one row per mode, the schemas per turn, the saving against direct and the proofs', () => {
    const reports = ALL_MODES.map((mode) => report(mode));
    const result: ComparisonResult = {
      api: API,
      stream: false,
      toolCount: 1_000,
      task: TASK,
      reports,
      proofs: evaluateProofs({ api: API, reports, toolCount: 1_000, task: TASK }),
      summaryPath: '/out/summary.json',
    };
    const text = formatComparisonReport(result);
    const rows = text.split('\n').filter((line) => /^\| (direct|code|tools|directory|native) /.test(line));
    expect(rows).toHaveLength(5);
    expect(rows[0]).toContain('390.6 KiB');
    expect(rows[0]).toContain('| 1035 / 1035 → 1035 ');
    expect(rows[1]).toContain(`${TARGET} (plugin)`);
    expect(rows[4]).toContain('| 1036 / 4 → 12 → 12 ');
    expect(rows[4]).toContain('| 1 (native) / 0 / 1 ');
    expect(text).toContain('  code         first request 99.3% smaller (0.68% of direct)');
    expect(text).toContain('  native       first request 5.0% larger (105.00% of direct)');
    expect(text).toContain("the model's context holds 4 before its search and 12 after (8 loaded by 1 provider tool search our catalog answered)");
    expect(text).toContain('Proofs: 17 of 17 passed');
    // Native's gain is the context, not the bytes; code mode's first run starts a sandbox.
    expect(text).toContain("  native saves context, not bytes: the provider still receives every definition (deferred), but the model's context holds 4 → 12 → 12 definitions per turn against direct's 1035 → 1035.");
    expect(text).not.toContain("Code mode's wall time");
    const slowCode = reports.map((entry) => (entry.mode === 'code' ? { ...entry, wallTimeMs: 9_800 } : entry));
    expect(formatComparisonReport({ ...result, reports: slowCode })).toContain(
      "Code mode's wall time (9800 ms, against 1000-1000 ms for the others) includes its sandbox's first start: finding which runtime is there and starting it (a locked-down Node child process, or the QuickJS-WASM engine) before the model's code runs; the other modes run no sandbox.",
    );
  });

  it('[H5] says which mode was rendered in place of the one asked for, and why', () => {
    const reports = [report('tools'), report('native', { renderedMode: 'tools', fallbackReason: 'no deferral on this API' }), report('code', { renderedMode: 'tools' })];
    const text = formatComparisonReport({ api: 'chat', stream: true, toolCount: 1_000, task: TASK, reports, proofs: [], summaryPath: '/out/summary.json' });
    expect(text).toContain('over the OpenAI Chat Completions API (SSE)');
    expect(text).toContain('| native→tools |');
    expect(text).toContain('  native→tools: no deferral on this API\n  code→tools: (no reason recorded in the session log)');
  });
});

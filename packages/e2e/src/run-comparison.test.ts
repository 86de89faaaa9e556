import { describe, expect, it } from 'vitest';
import { formatComparisonReport } from './format-comparison-report.js';
import { evaluateProofs, type ComparisonResult, type ModeReport } from './run-comparison.js';
import type { ComparisonMode } from './write-gateway-config.js';

const TARGET = 'fake_forecast_firmware_aurora';
const TARGET_ID = `plugin:fakeplugin:${TARGET}`;
const TASK = { target: TARGET, query: 'Forecast device firmware rollouts', marker: 'm', prompt: 'Forecast device firmware rollouts.' };

function report(mode: ComparisonMode, overrides: Partial<ModeReport> = {}): ModeReport {
  const search = mode === 'direct' ? 0 : 1;
  const describes = mode === 'tools' || mode === 'directory' ? 1 : 0;
  return {
    mode,
    renderedMode: mode,
    fallbackReason: undefined,
    providerRequests: mode === 'direct' || mode === 'code' ? 2 : 4,
    firstRequestBytes: mode === 'direct' ? 400_000 : mode === 'directory' ? 15_000 : 2_700,
    firstRequestBody: '{}',
    totalRequestBytes: mode === 'direct' ? 800_000 : 20_000,
    toolsDeclared: mode === 'direct' ? 1_035 : 4,
    instructionChars: mode === 'direct' ? 0 : 250,
    schemasUpFront: mode === 'direct' ? 1_035 : 3,
    fakeSchemasInFirstRequest: mode === 'direct' ? 1_000 : 0,
    fakeSchemaTokensInAnyRequest: mode === 'tools' || mode === 'directory' ? ['FAKE_SCHEMA_0421'] : mode === 'direct' ? ['many'] : [],
    searches: search,
    describes,
    calls: 1,
    codeRuns: mode === 'code' ? 1 : 0,
    bridge: mode === 'code' ? { searches: 1, describes: 0, calls: 1 } : { searches: 0, describes: 0, calls: 0 },
    codeRunBridgeCalls: mode === 'code' ? { search: 1, describe: 0, call: 1 } : undefined,
    summaryCounts: { searches: search, describes, calls: 1 },
    finalTool: { id: TARGET_ID, source: 'plugin', via: mode === 'direct' ? 'direct' : mode === 'code' ? 'code' : 'tool_call', status: 'ok' },
    finalText: `Done: ${TARGET} answered FAKE_PLUGIN_OK.`,
    providerRules: [],
    wallTimeMs: 1_000,
    sessionLogPath: `/state/${mode}/sessions/x.jsonl`,
    telemetry: {} as ModeReport['telemetry'],
    ...overrides,
  };
}

const ALL_MODES: ComparisonMode[] = ['direct', 'code', 'tools', 'directory'];

describe('evaluateProofs', () => {
  it('[H5] passes every proof for four good reports', () => {
    const proofs = evaluateProofs({ reports: ALL_MODES.map((mode) => report(mode)), toolCount: 1_000, task: TASK });
    expect(proofs.filter((proof) => !proof.ok)).toEqual([]);
    expect(proofs.map((proof) => proof.id)).toEqual(['P1', 'P2', 'P2', 'P2', 'P3', 'P4', 'P4', 'P4', 'P5', 'P5', 'P6', 'P6', 'P6', 'P6']);
  });

  it('[H5] fails P5 when a tool-search body is over 2% of direct', () => {
    const reports = ALL_MODES.map((mode) => (mode === 'tools' ? report(mode, { firstRequestBytes: 8_001 }) : report(mode)));
    const failed = evaluateProofs({ reports, toolCount: 1_000, task: TASK }).filter((proof) => !proof.ok);
    expect(failed).toEqual([{ id: 'P5', ok: false, detail: 'tools: 8001 B vs direct 400000 B = 2.00% (limit 2%)' }]);
  });

  it('[H5] fails P2 when code mode fell back to tools mode', () => {
    const reports = ALL_MODES.map((mode) => (mode === 'code' ? report(mode, { renderedMode: 'tools' }) : report(mode)));
    const failed = evaluateProofs({ reports, toolCount: 1_000, task: TASK }).filter((proof) => !proof.ok);
    expect(failed.map((proof) => proof.id)).toEqual(['P2']);
  });

  it('[H5] fails P4 when a fake schema reaches the provider up front', () => {
    const reports = ALL_MODES.map((mode) => (mode === 'directory' ? report(mode, { fakeSchemasInFirstRequest: 1 }) : report(mode)));
    const failed = evaluateProofs({ reports, toolCount: 1_000, task: TASK }).filter((proof) => !proof.ok);
    expect(failed.map((proof) => proof.id)).toEqual(['P4']);
  });

  it('[H5] fails P1, P3, P5 and P6 when direct mode did not run', () => {
    const reports = ALL_MODES.filter((mode) => mode !== 'direct').map((mode) => report(mode));
    const failed = evaluateProofs({ reports, toolCount: 1_000, task: TASK }).filter((proof) => !proof.ok);
    expect([...new Set(failed.map((proof) => proof.id))]).toEqual(['P1', 'P3', 'P5', 'P6']);
  });

  it('[H5] fails P6 when the session log shows an extra search', () => {
    const reports = ALL_MODES.map((mode) => (mode === 'tools' ? report(mode, { searches: 2 }) : report(mode)));
    const failed = evaluateProofs({ reports, toolCount: 1_000, task: TASK }).filter((proof) => !proof.ok);
    expect(failed.map((proof) => proof.id)).toEqual(['P6']);
  });
});

describe('formatComparisonReport', () => {
  it('[H5] prints one row per mode, the saving against direct and the proofs', () => {
    const reports = ALL_MODES.map((mode) => report(mode));
    const result: ComparisonResult = {
      api: 'responses',
      stream: false,
      toolCount: 1_000,
      task: TASK,
      reports,
      proofs: evaluateProofs({ reports, toolCount: 1_000, task: TASK }),
      summaryPath: '/out/summary.json',
    };
    const text = formatComparisonReport(result);
    const rows = text.split('\n').filter((line) => /^\| (direct|code|tools|directory) /.test(line));
    expect(rows).toHaveLength(4);
    expect(rows[0]).toContain('390.6 KiB');
    expect(rows[1]).toContain(`${TARGET} (plugin)`);
    expect(text).toContain('code      first request 99.3% smaller (0.68% of direct)');
    expect(text).toContain('Proofs: 14 of 14 passed');
  });
});

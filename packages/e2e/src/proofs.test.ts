// Proofs 1–6 of issue 7, for both wire formats: one comparison run per format (all four modes), shared by the tests.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeToolSpecs } from './write-fake-plugin.js';
import { MCP_FIXTURE_TOOL_COUNT } from './mcp-fixture.js';
import { runComparison, type ComparisonResult, type ModeReport } from './run-comparison.js';
import type { ComparisonMode } from './write-gateway-config.js';

const FORMATS = [
  { api: 'responses' as const, stream: false },
  { api: 'chat' as const, stream: true },
];

const TARGET = fakeToolSpecs()[421]!;
const TARGET_ID = `plugin:fakeplugin:${TARGET.name}`;
const CLIENT_TOOL_NAMES = ['client_show_notification', 'client_open_document', 'client_request_confirmation'];

function declaredToolNames(result: ComparisonResult, requestBody: string): string[] {
  const body = JSON.parse(requestBody) as { tools: Array<{ name?: string; function?: { name: string } }> };
  return body.tools.map((tool) => (result.api === 'chat' ? tool.function!.name : tool.name!));
}

describe.each(FORMATS)('runComparison over $api (stream: $stream)', ({ api, stream }) => {
  let dir: string;
  let result: ComparisonResult;
  const report = (mode: ComparisonMode): ModeReport => result.reports.find((candidate) => candidate.mode === mode)!;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `e2e-proofs-${api}-`));
    result = await runComparison({ outDir: dir, api, stream });
  }, 180_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

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
    expect(direct.schemasUpFront).toBe(1_000 + MCP_FIXTURE_TOOL_COUNT + CLIENT_TOOL_NAMES.length);
    expect(direct.toolsDeclared).toBe(1_000 + MCP_FIXTURE_TOOL_COUNT + CLIENT_TOOL_NAMES.length);
  });

  it('[P3] direct mode declares the target with its exact schema', () => {
    const direct = report('direct');
    const body = JSON.parse(direct.firstRequestBody) as { tools: Array<Record<string, unknown>> };
    const declared = body.tools.find((tool) =>
      api === 'chat' ? (tool.function as { name: string }).name === TARGET.name : tool.name === TARGET.name,
    );
    const parameters = api === 'chat' ? (declared?.function as { parameters: unknown }).parameters : declared?.parameters;
    expect(parameters).toEqual(TARGET.inputSchema);
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
  });

  it.each(['direct', 'code', 'tools', 'directory'] as const)('[P6] the %s session log closes with a summary of the same counts', (mode) => {
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

  it('evaluates every proof as passed', () => {
    expect(result.proofs.filter((proof) => !proof.ok)).toEqual([]);
    expect(new Set(result.proofs.map((proof) => proof.id))).toEqual(new Set(['P1', 'P2', 'P3', 'P4', 'P5', 'P6']));
  });
});

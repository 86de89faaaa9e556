// The activity view's reading of session logs, fed by the gateway's own writer.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSessionLog } from '@tool-search/gateway-adapter';
import { createPolicy, type PolicyTool } from '@tool-search/policy';
import { afterEach, describe, expect, it } from 'vitest';
import { policyRowOf, readSessionLogs, serverMapOf } from './console-data.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function folder(): string {
  const created = mkdtempSync(join(tmpdir(), 'console-activity-'));
  folders.push(created);
  return created;
}

describe('readSessionLogs', () => {
  it('reads the lines createSessionLog writes (ISO times), as milliseconds, every field kept', () => {
    const path = join(folder(), 'session.jsonl');
    const before = Date.now();
    const log = createSessionLog({ path }, { sessionId: 'agent-7' });
    log.write('search', { query: 'read a file', hits: 3 });
    log.write('call', { toolCallId: 'c1', toolId: 'mcp:memory:create_entities', status: 'ok', durationMs: 12 });
    log.flush();
    const { lines, problems } = readSessionLogs(path);
    expect(problems).toEqual([]);
    expect(lines.map((line) => [line.sessionId, line.event])).toEqual([['agent-7', 'search'], ['agent-7', 'call']]);
    expect(lines[1]).toMatchObject({ toolId: 'mcp:memory:create_entities', status: 'ok', durationMs: 12 });
    for (const line of lines) expect(line.time).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
  });

  it('reads every file of a folder, and says which file is missing, unreadable or has lines it cannot read', () => {
    const dir = folder();
    mkdirSync(join(dir, 'logs'));
    createSessionLog({ path: join(dir, 'logs', 'a.jsonl') }, { sessionId: 'a' }).write('session.start', {});
    writeFileSync(join(dir, 'logs', 'b.jsonl'), '{"event":"call","time":"not a time"}\nnot json\n');
    expect(readSessionLogs(join(dir, 'logs'))).toEqual({
      lines: [expect.objectContaining({ sessionId: 'a', event: 'session.start' })],
      problems: [`session log ${join(dir, 'logs', 'b.jsonl')}: 2 lines are not session-log lines (JSON with "event" and "time") and are not shown`],
    });
    expect(readSessionLogs(join(dir, 'nope.jsonl'))).toEqual({ lines: [], problems: [`session log ${join(dir, 'nope.jsonl')} does not exist`] });
  });
});

describe('serverMapOf', () => {
  it("takes the server map out of a weak tool_search answer, and nothing out of an answer without one", () => {
    const weak = { evidence: 'weak', note: 'No tool clearly matches', hits: [], servers: { servers: [{ source: 'mcp', owner: 'memory', summary: 'A knowledge graph.', toolCount: 9, tools: ['create_entities'] }], omitted: 0 } };
    expect(serverMapOf(weak)).toEqual([{ owner: 'memory', summary: 'A knowledge graph.', tools: ['create_entities'] }]);
    expect(serverMapOf([{ id: 'mcp:memory:read_graph' }])).toBeUndefined();
    expect(serverMapOf({ servers: { servers: [{ owner: 'memory' }] } })).toBeUndefined();
    expect(serverMapOf(undefined)).toBeUndefined();
    // A server still connecting is shown as starting.
    const starting = { evidence: 'weak', servers: { servers: [{ source: 'mcp', owner: 'github', summary: '', toolCount: 0, tools: [], state: 'starting' }], omitted: 0 } };
    expect(serverMapOf(starting)).toEqual([{ owner: 'github', summary: '', tools: [], state: 'starting' }]);
  });
});

describe('policyRowOf', () => {
  const tool = (name: string, annotations?: PolicyTool['annotations']): PolicyTool => ({
    id: `mcp:github:${name}`, name, source: 'mcp', owner: 'github', ownerOnly: false, trusted: false, ...(annotations === undefined ? {} : { annotations }),
  });

  it("says a requireApproval hint rule puts a call before an approval, with the note on annotations the tool does not state", () => {
    const policy = createPolicy({ requireApproval: ['hint:destructive'] });
    expect(policyRowOf(tool('list_issues'), true, policy, {})).toEqual({
      id: 'mcp:github:list_issues',
      admitted: true,
      approval: "requires approval by 'hint:destructive' in global (no annotations: MCP's default destructiveHint is true)",
    });
    // A tool that states its hint: the rule and layer, no word about defaults.
    expect(policyRowOf(tool('delete_repo', { destructiveHint: true }), true, policy, {})).toEqual({ id: 'mcp:github:delete_repo', admitted: true, approval: "requires approval by 'hint:destructive' in global" });
    expect(policyRowOf(tool('get_me', { readOnlyHint: true, destructiveHint: false }), true, policy, {})).toEqual({ id: 'mcp:github:get_me', admitted: true });
  });

  it('keeps the refusal and its rule for a tool the policy refuses (with the same note), and says nothing of approvals there', () => {
    const policy = createPolicy({ deny: ['hint:destructive'], requireApproval: ['mcp:github:*'] });
    expect(policyRowOf(tool('list_issues'), false, policy, {})).toEqual({
      id: 'mcp:github:list_issues',
      admitted: false,
      by: 'policy',
      layer: 'global',
      rule: 'deny:hint:destructive',
      reason: "tool 'mcp:github:list_issues' is denied by 'hint:destructive' in global (no annotations: MCP's default destructiveHint is true)",
    });
  });
});

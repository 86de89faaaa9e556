// The host's byte limit on one upstream answer, with the real `@modelcontextprotocol/server-filesystem`: a 12 MB
// file read through it fails that one call with `result_too_large` (size and limit named), while another session's
// calls to the same server go on succeeding, and the server is neither dropped nor restarted.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';
import { realMcpServerConfig } from '@tool-search/test-utils';
import { scaledTimeout } from '@tool-search/property-settings';

let folder: string;
let host: ToolSearchHost;
beforeAll(async () => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), 'ts-result-limit-')));
  writeFileSync(join(folder, 'big.txt'), 'a'.repeat(12 * 1024 * 1024));
  writeFileSync(join(folder, 'small.txt'), 'small file\n');
  host = await createToolSearchHost({ sources: { mcp: [realMcpServerConfig('filesystem', { name: 'fs', args: [folder] })] }, startupTimeoutMs: 30_000 });
}, scaledTimeout(60_000));
afterAll(async () => {
  await host?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('createToolSearchHost upstream result limit (maxResultBytes)', () => {
  it('fails a 12 MB read alone with result_too_large while another session keeps reading from the same server', async () => {
    const big = await host.openSession({ config: { mode: 'tools' }, sessionId: 'big' });
    const other = await host.openSession({ config: { mode: 'tools' }, sessionId: 'other' });
    let reading = true;
    const smallReads = (async () => {
      const outcomes = [];
      for (let index = 0; reading || index < 3; index += 1) {
        outcomes.push(await other.execute({ name: 'tool_call', args: { id: 'mcp:fs:read_text_file', args: { path: join(folder, 'small.txt') } }, toolCallId: `s${index}` }));
      }
      return outcomes;
    })();
    const oversized = await big.execute({ name: 'tool_call', args: { id: 'mcp:fs:read_text_file', args: { path: join(folder, 'big.txt') } }, toolCallId: 'b1' });
    reading = false;
    const outcomes = await smallReads;
    console.log(`${oversized.status === 'error' ? oversized.message.slice(0, 140) : oversized.status}; other session: ${outcomes.filter((outcome) => outcome.status === 'ok').length}/${outcomes.length} reads ok`);
    expect(oversized).toMatchObject({ status: 'error', code: 'result_too_large' });
    expect(oversized.status === 'error' && oversized.message).toMatch(/^MCP server "fs" answered tools\/call read_text_file with \d+ bytes, over the limit of 8388608 bytes \(maxResultBytes\)/);
    expect(outcomes.length).toBeGreaterThanOrEqual(3);
    expect(outcomes.every((outcome) => outcome.status === 'ok' && outcome.content.includes('small file'))).toBe(true);
    // The server still serves both sessions: it was neither dropped nor restarted.
    expect(host.status().servers.find((server) => server.name === 'fs')).toMatchObject({ state: 'ready', restarts: 0 });
    const after = await big.execute({ name: 'tool_call', args: { id: 'mcp:fs:read_text_file', args: { path: join(folder, 'small.txt') } }, toolCallId: 'b2' });
    expect(after).toMatchObject({ status: 'ok' });
  }, scaledTimeout(60_000));
});

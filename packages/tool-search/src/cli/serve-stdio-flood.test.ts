// `tool-search serve` on stdio under a flood: a client writes 2,000 requests of 100 KB each (echo calls through
// the real server-everything) without reading the answers. Serve stops reading while the unread answers exceed
// its bound, so its memory stays bounded; once the client reads, every request is answered.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaledTimeout } from '@tool-search/property-settings';

const require = createRequire(import.meta.url);
const BIN = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const REQUESTS = 2_000;
const REQUEST_BYTES = 100 * 1024;
/** The bound the README documents for serve's resident memory under such a flood. */
const RSS_BOUND_MB = 350;

let work: string;
let config: string;
beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build the package first (pnpm --filter tool-search build)`);
  work = mkdtempSync(join(tmpdir(), 'tool-search-flood-'));
  config = join(work, 'config.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } }, toolSearch: { mode: 'tools' } }));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

describe('tool-search serve on stdio, flooded', () => {
  it(`keeps its RSS under ${RSS_BOUND_MB} MB while ${REQUESTS} x 100 KB requests go unread, then answers them all`, { timeout: scaledTimeout(180_000) }, async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--config', config], { stdio: 'pipe' });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const answered = new Map<number, boolean>();
      let buffered = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
          const reply = JSON.parse(buffered.slice(0, newline)) as { id?: number; result?: { isError?: boolean; content?: Array<{ text?: string }> } };
          buffered = buffered.slice(newline + 1);
          if (typeof reply.id === 'number') answered.set(reply.id, reply.id === 0 || (reply.result !== undefined && reply.result.isError !== true && (reply.result.content?.[0]?.text?.length ?? 0) > REQUEST_BYTES - 1_000));
        }
      });
      const waitFor = async (done: () => boolean, what: string) => {
        for (let attempt = 0; attempt < 2_400 && !done(); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 50));
        if (!done()) throw new Error(`timed out waiting for ${what}`);
      };
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } } })}\n`);
      await waitFor(() => answered.has(0), 'initialize');
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      // One call first, so the upstream server has started before the flood.
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'tool_call', arguments: { id: 'mcp:everything:echo', args: { message: 'x'.repeat(REQUEST_BYTES) } } } })}\n`);
      await waitFor(() => answered.has(1), 'the first call');
      const before = rssMb(child.pid!);

      child.stdout.pause();
      const message = 'y'.repeat(REQUEST_BYTES - 200);
      for (let id = 2; id < REQUESTS + 2; id += 1) {
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'tool_call', arguments: { id: 'mcp:everything:echo', args: { message } } } })}\n`);
      }
      let peak = before;
      for (let sample = 0; sample < 60; sample += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        peak = Math.max(peak, rssMb(child.pid!));
      }
      const unreadPeak = peak;
      child.stdout.resume();
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(child.pid!))), 100);
      await waitFor(() => answered.size >= REQUESTS + 2, 'every answer').finally(() => clearInterval(sampler));
      const after = rssMb(child.pid!);
      console.log(`serve RSS: before ${before.toFixed(0)} MB, peak while unread ${unreadPeak.toFixed(0)} MB, peak overall ${peak.toFixed(0)} MB, after ${after.toFixed(0)} MB`);
      expect([...answered.values()].every(Boolean)).toBe(true);
      expect(peak).toBeLessThan(RSS_BOUND_MB);
    } finally {
      child.stdin.end();
      await exited;
    }
  });
});

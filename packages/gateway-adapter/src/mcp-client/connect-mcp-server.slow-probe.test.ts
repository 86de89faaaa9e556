// A 2026-07-28-only stdio server slower than the era probe's timeout (a loaded machine): the SDK reads the silence as
// a 2025-era server and goes on with `initialize`, which that server refuses. The timeout is no verdict: the next
// connect probes again and finds 2026-07-28, instead of keeping "2025" and failing until the host restarts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scaledTimeout } from '@tool-search/property-settings';
import { MODERN_MCP_SERVER_PATH } from '@tool-search/test-utils';
import { connectMcpServer } from './connect-mcp-server.js';
import { createEraVerdictCache } from './create-era-verdict-cache.js';
import type { McpServerConfig } from '../schemas.js';

const folder = mkdtempSync(join(tmpdir(), 'slow-probe-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// Stands in front of the real server. While the marker file exists (it is taken away at once), the server is
// started only once the client has given up on its probe and sent `initialize`, whatever the machine's load: the
// probe is answered too late. Otherwise the server starts at once.
const WRAPPER = join(folder, 'slow-once.mjs');
writeFileSync(
  WRAPPER,
  `import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
const [serverPath, marker] = process.argv.slice(2);
const slow = existsSync(marker);
if (slow) rmSync(marker);
let child;
const held = [];
let seen = '';
const start = () => {
  child = spawn(process.execPath, [serverPath], { stdio: ['pipe', 'inherit', 'inherit'] });
  for (const chunk of held) child.stdin.write(chunk);
  child.on('exit', (code) => process.exit(code ?? 0));
};
if (!slow) start();
process.stdin.on('data', (chunk) => {
  if (child) return void child.stdin.write(chunk);
  held.push(chunk);
  seen += chunk.toString('utf8');
  if (seen.includes('"method":"initialize"')) start();
});
process.stdin.on('end', () => (child ? child.stdin.end() : process.exit(0)));
`,
);

describe('connectMcpServer: a stdio era probe that timed out', () => {
  it('keeps no 2025 verdict, so the next start probes again and connects on 2026-07-28', async () => {
    const marker = join(folder, 'slow');
    writeFileSync(marker, '');
    const config: McpServerConfig = { name: 'slow-modern', transport: 'stdio', command: process.execPath, args: [WRAPPER, MODERN_MCP_SERVER_PATH, marker] };
    const verdicts = createEraVerdictCache();
    const first = await connectMcpServer(config, { requestTimeoutMs: scaledTimeout(10_000), eraVerdicts: verdicts });
    // Reached as 2025 after the timeout, the server refused `initialize`.
    expect(first.status).toBe('unavailable');
    expect(verdicts.read()).toBeUndefined();
    const second = await connectMcpServer(config, { requestTimeoutMs: scaledTimeout(10_000), eraVerdicts: verdicts });
    try {
      expect(second.status).toBe('connected');
      expect(second.protocolVersion).toBe('2026-07-28');
      expect(verdicts.read()?.kind).toBe('modern');
    } finally {
      await second.close();
    }
  }, scaledTimeout(60_000));
});

// Stands in front of the real server and starts it a fixed time after its own start, holding what the client sends.
const DELAYED = join(folder, 'delayed.mjs');
writeFileSync(
  DELAYED,
  `import { spawn } from 'node:child_process';
const [serverPath, delayMs] = process.argv.slice(2);
let child;
const held = [];
setTimeout(() => {
  child = spawn(process.execPath, [serverPath], { stdio: ['pipe', 'inherit', 'inherit'] });
  for (const chunk of held) child.stdin.write(chunk);
  child.on('exit', (code) => process.exit(code ?? 0));
}, Number(delayMs));
process.stdin.on('data', (chunk) => (child ? child.stdin.write(chunk) : held.push(chunk)));
process.stdin.on('end', () => (child ? child.stdin.end() : process.exit(0)));
`,
);

describe('connectMcpServer: stdioEraProbeTimeoutMs', () => {
  const delayed: McpServerConfig = { name: 'delayed-modern', transport: 'stdio', command: process.execPath, args: [DELAYED, MODERN_MCP_SERVER_PATH, '1500'] };

  it('reads a server slower than the probe wait as 2025 (it then refuses initialize)', async () => {
    const connection = await connectMcpServer(delayed, { requestTimeoutMs: scaledTimeout(10_000), stdioEraProbeTimeoutMs: 300 });
    expect(connection.status).toBe('unavailable');
    await connection.close();
  }, scaledTimeout(30_000));

  it('connects that server on its first start when the wait is longer than its start', async () => {
    const connection = await connectMcpServer(delayed, { requestTimeoutMs: scaledTimeout(20_000), stdioEraProbeTimeoutMs: scaledTimeout(10_000) });
    try {
      expect(connection.status).toBe('connected');
      expect(connection.protocolVersion).toBe('2026-07-28');
    } finally {
      await connection.close();
    }
  }, scaledTimeout(60_000));
});

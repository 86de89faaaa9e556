import { describe, expect, it } from 'vitest';
import type { StdioServersAhead } from '../mcp-client/index.js';
import type { McpServerConfig } from '../schemas.js';
import { startHost } from './start-host.js';

/** Spawned-ahead servers that record which configs the host asked for (asking is the first step of a server start). */
function recordingServersAhead(): StdioServersAhead & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    names: [],
    take: (config: McpServerConfig) => {
      asked.push(config.name);
      return undefined;
    },
    close: async () => undefined,
  };
}

const SERVER: McpServerConfig = { name: 'never', transport: 'stdio', command: process.execPath, args: ['-e', 'setTimeout(() => {}, 60000)'] };

describe('startHost', () => {
  it.each([
    ['codeRuns.maxConcurrent', { codeRuns: { maxConcurrent: 0 } }],
    ['maxConcurrentStarts', { maxConcurrentStarts: 0 }],
    ['policyCacheSize', { policyCacheSize: -1 }],
  ])('rejects an invalid %s before it loads a plugin or starts a server', async (path, invalid) => {
    const ahead = recordingServersAhead();
    const started = startHost({ sources: { mcp: [SERVER], plugins: ['./no-such-plugin.js'] }, spawnedAhead: ahead, ...invalid });
    await expect(started).rejects.toMatchObject({ name: 'GatewayAdapterError', code: 'invalid_options', path });
    expect(ahead.asked).toEqual([]);
  });

  it('starts no MCP server when codeRuns is invalid (no server process is left behind)', async () => {
    const ahead = recordingServersAhead();
    await expect(startHost({ sources: { mcp: [SERVER] }, spawnedAhead: ahead, codeRuns: { maxQueued: 0 } })).rejects.toMatchObject({ code: 'invalid_options', path: 'codeRuns.maxQueued' });
    expect(ahead.asked).toEqual([]);
  });
});

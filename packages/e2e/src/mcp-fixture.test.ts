import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_FIXTURE_PATH, MCP_FIXTURE_TOOL_COUNT } from './mcp-fixture.js';

describe('MCP_FIXTURE_PATH', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'fixture-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MCP_FIXTURE_PATH] }));
  });
  afterAll(async () => {
    await client.close();
  });

  it('[H3] serves a few dozen tools over paginated tools/list', async () => {
    const first = await client.listTools();
    expect(first.tools).toHaveLength(10);
    expect(first.nextCursor).toBe('10');
    const names = [...first.tools.map((tool) => tool.name)];
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await client.listTools({ cursor });
      names.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
    }
    expect(names).toHaveLength(MCP_FIXTURE_TOOL_COUNT);
    expect(new Set(names).size).toBe(MCP_FIXTURE_TOOL_COUNT);
  });

  it('echoes a call as MCP_OK with its arguments', async () => {
    const result = await client.callTool({ name: 'wiki_get', arguments: { query: 'onboarding' } });
    expect(result.content).toEqual([{ type: 'text', text: 'MCP_OK wiki_get {"query":"onboarding"}' }]);
  });
});

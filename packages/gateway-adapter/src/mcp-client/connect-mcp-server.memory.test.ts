import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcpServer, type McpServerConnection } from './connect-mcp-server.js';
import { realMcpServerConfig } from '@tool-search/test-utils';

// @modelcontextprotocol/server-memory (a knowledge graph in a JSON file): structured results with output
// schemas, checked when the server is trusted; titles and annotations; its graph as a resource.
let folder: string;
let connection: McpServerConnection;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ts-memory-mcp-'));
  connection = await connectMcpServer(
    realMcpServerConfig('memory', { env: { MEMORY_FILE_PATH: join(folder, 'memory.jsonl') }, extra: { trusted: true } }),
    { requestTimeoutMs: 20_000 },
  );
});
afterAll(async () => {
  await connection.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('connectMcpServer with server-memory', () => {
  it('lists its tools with titles, annotations and output schemas', () => {
    const create = connection.tools().find((tool) => tool.name === 'create_entities');
    expect(create).toMatchObject({
      title: 'Create Entities',
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      outputSchema: { type: 'object', properties: { entities: expect.any(Object) } },
    });
    expect(connection.tools().find((tool) => tool.name === 'delete_entities')?.annotations?.destructiveHint).toBe(true);
  });

  it('stores entities and reads the graph back as structured content checked against the output schema', async () => {
    const entity = { name: 'Ada', entityType: 'person', observations: ['wrote the first program'] };
    expect(await connection.callTool('create_entities', { entities: [entity] })).toMatchObject({ ok: true, isError: false, structured: { entities: [entity] } });
    const graph = await connection.callTool('read_graph', {});
    expect(graph).toMatchObject({ ok: true, structured: { entities: [entity], relations: [] }, result: { entities: [entity], relations: [] } });
    expect(graph.ok && graph.parts[0]?.type).toBe('text');
  });

  it('serves the graph as a resource', async () => {
    const resources = await connection.listResources();
    expect(resources.ok && resources.items).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'knowledge-graph', mimeType: 'application/json' })]));
    const uri = resources.ok ? resources.items.find((item) => item.name === 'knowledge-graph')!.uri : '';
    const read = await connection.readResource(uri);
    expect(read).toMatchObject({ ok: true, parts: [{ type: 'resource', uri, mimeType: 'application/json', text: expect.stringContaining('"Ada"') }] });
  });

  it('says so when the server offers no prompts', async () => {
    expect(await connection.listPrompts()).toEqual({ ok: false, code: 'unsupported', message: 'MCP server "memory" does not offer prompts' });
  });
});

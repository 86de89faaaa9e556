// What an MCP client gets from `tools/list` in one mode: the bytes of the tools array and of the instructions,
// measured through a real front and the official SDK client (in memory).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ToolSearchHost } from '@tool-search/gateway-adapter';
import { createToolSearchMcpServer } from '@tool-search/mcp-server';
import type { LoadedConfig } from './load-config.js';

/** The modes `doctor` and the console measure, each as the `toolSearch` setting that renders it. */
export const SURFACE_MODES = [
  { mode: 'direct', setting: false },
  { mode: 'code', setting: { mode: 'code' } },
  { mode: 'tools', setting: { mode: 'tools' } },
  { mode: 'directory', setting: { mode: 'directory' } },
] as const;

export interface McpSurfaceMeasure {
  /** The mode rendered (code may fall back to tools). */
  mode: string;
  fallbackReason?: string;
  tools: number;
  toolBytes: number;
  instructionBytes: number;
}

export async function measureMcpSurface(host: ToolSearchHost, config: LoadedConfig, toolSearch: unknown): Promise<McpSurfaceMeasure> {
  const front = await createToolSearchMcpServer({ host, config: toolSearch, policy: config.policy, context: config.context, visible: config.visible });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'tool-search-doctor', version: '0.0.0' });
  try {
    await front.server.connect(serverSide);
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    const decision = front.session.decision;
    return {
      mode: decision.mode,
      ...(decision.fallbackReason === undefined ? {} : { fallbackReason: decision.fallbackReason }),
      tools: tools.length,
      toolBytes: Buffer.byteLength(JSON.stringify(tools)),
      instructionBytes: Buffer.byteLength(client.getInstructions() ?? ''),
    };
  } finally {
    await client.close();
    await front.close();
  }
}

import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../schemas.js';
import { TrackedStdioClientTransport } from './tracked-stdio-client-transport.js';

/** The SDK transport for a server config (stdio with stderr piped, Streamable HTTP, or legacy SSE). */
export function createSdkTransport(config: McpServerConfig, authProvider: OAuthClientProvider | undefined): Transport {
  switch (config.transport) {
    case 'stdio':
      return new TrackedStdioClientTransport({
        command: config.command,
        args: config.args ?? [],
        env: { ...getDefaultEnvironment(), ...(config.env ?? {}) },
        ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
        stderr: 'pipe',
      });
    case 'http':
      return new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: config.headers === undefined ? {} : { headers: config.headers },
        ...(authProvider === undefined ? {} : { authProvider }),
      });
    case 'sse':
      return new SSEClientTransport(new URL(config.url), {
        requestInit: config.headers === undefined ? {} : { headers: config.headers },
        ...(authProvider === undefined ? {} : { authProvider }),
      });
  }
}

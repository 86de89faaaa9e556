import { SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { OAuthClientProvider, Transport } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../schemas.js';
import type { GuardedFetch } from './create-refresh-guard-fetch.js';
import { stdioServerParameters } from './stdio-server-parameters.js';
import { TrackedStdioClientTransport } from './tracked-stdio-client-transport.js';

/** The SDK transport for a server config (stdio with stderr piped, Streamable HTTP, or legacy SSE). */
export function createSdkTransport(config: McpServerConfig, authProvider: OAuthClientProvider | undefined, fetch?: GuardedFetch): Transport {
  switch (config.transport) {
    case 'stdio':
      return new TrackedStdioClientTransport(stdioServerParameters(config), { maxResultBytes: config.maxResultBytes });
    case 'http':
      return new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: config.headers === undefined ? {} : { headers: config.headers },
        ...(authProvider === undefined ? {} : { authProvider }),
        ...(fetch === undefined ? {} : { fetch }),
      });
    case 'sse':
      return new SSEClientTransport(new URL(config.url), {
        requestInit: config.headers === undefined ? {} : { headers: config.headers },
        ...(authProvider === undefined ? {} : { authProvider }),
        ...(fetch === undefined ? {} : { fetch }),
      });
  }
}

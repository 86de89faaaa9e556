// The server configs these fixtures hand out: the fields of the gateway's `McpServerConfig` they use, declared
// here so this package depends on no workspace package (the gateway's own tests import it).

/** A stdio server: a command the host spawns. */
export interface StdioServerConfig {
  name: string;
  transport: 'stdio';
  command: string;
  args: string[];
  env?: Record<string, string>;
  trusted?: boolean;
  include?: string[];
  exclude?: string[];
}

/** A Streamable HTTP server on a URL. */
export interface HttpServerConfig {
  name: string;
  transport: 'http';
  url: string;
  trusted?: boolean;
}

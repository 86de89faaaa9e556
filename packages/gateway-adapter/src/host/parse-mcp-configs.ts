// The host's MCP server configs, parsed where they enter.
import { GatewayAdapterError } from '../errors.js';
import { mcpServerConfigSchema, type McpServerConfig } from '../schemas.js';
import { formatZodError } from '../shared/index.js';

/** Validates the MCP server configs (strict, with the path of the first problem) and their unique names. */
export function parseMcpConfigs(configs: readonly unknown[]): McpServerConfig[] {
  const seen = new Set<string>();
  return configs.map((server, index) => {
    const parsed = mcpServerConfigSchema.safeParse(server);
    if (!parsed.success) {
      const { message, path } = formatZodError(parsed.error, `sources.mcp[${index}]`);
      throw new GatewayAdapterError('invalid_options', `Invalid MCP server config: ${message}`, { path });
    }
    if (seen.has(parsed.data.name)) {
      throw new GatewayAdapterError('invalid_options', `Duplicate MCP server name "${parsed.data.name}"`, { path: `sources.mcp[${index}].name` });
    }
    seen.add(parsed.data.name);
    return parsed.data;
  });
}

// The MCP log levels, least severe first: the SDK's own list, for every part that filters or validates them.
import { LoggingLevelSchema } from '@modelcontextprotocol/core';

export const MCP_LOG_LEVELS = LoggingLevelSchema.options;

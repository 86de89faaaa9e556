// The agent's own LangChain tools as a session's client tools, so the session's policy, hooks and approvals gate them.
import type { ClientTool } from '@tool-search/gateway-adapter';
import { toJsonSchema } from '@langchain/core/utils/json_schema';

/** What `toClientTools` reads of a LangChain tool (a `tool()`, a StructuredTool, a DynamicStructuredTool). */
export interface LangChainToolLike {
  name: string;
  description?: string;
  schema?: unknown;
}

/**
 * Client tool declarations for `host.openSession({ client })`: each tool's name, description and input schema (a
 * zod schema converted with LangChain's own `toJsonSchema`, a JSON Schema as it is). The session then declares them
 * beside its surface and authorises each call; the agent's tool runs it with the authorised arguments.
 */
export function toClientTools(tools: readonly LangChainToolLike[], options: { owner?: string } = {}): ClientTool[] {
  return tools.map((tool) => {
    const inputSchema = tool.schema === undefined ? undefined : (toJsonSchema(tool.schema as Parameters<typeof toJsonSchema>[0]) as ClientTool['inputSchema']);
    return {
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      ...(inputSchema === undefined ? {} : { inputSchema }),
      ...(options.owner === undefined ? {} : { owner: options.owner }),
    };
  });
}

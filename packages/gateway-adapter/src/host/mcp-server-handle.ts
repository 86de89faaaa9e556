// One configured MCP server's pass-through methods, for fronts that serve its resources, prompts and completions.
import { renderErrorText } from '@tool-search/modes';
import type { McpServerSupervisor } from '../mcp-client/index.js';
import type { HostMcpServer } from './host-status.js';

/** A server's pass-through methods, answering `unavailable` while it is not ready. */
export function mcpServerHandle(supervisor: McpServerSupervisor): HostMcpServer {
  const down = () => ({ ok: false as const, code: 'unavailable' as const, message: renderErrorText({ kind: 'server_not_ready', server: supervisor.name, state: supervisor.state, reason: supervisor.reason ?? 'not ready' }) });
  const live = () => supervisor.live();
  return {
    name: supervisor.name,
    get state() {
      return supervisor.state;
    },
    get instructions() {
      return live()?.instructions;
    },
    listResources: async () => (await live()?.listResources()) ?? down(),
    listResourceTemplates: async () => (await live()?.listResourceTemplates()) ?? down(),
    readResource: async (uri, readOptions) => (await live()?.readResource(uri, readOptions)) ?? down(),
    listPrompts: async () => (await live()?.listPrompts()) ?? down(),
    getPrompt: async (name, args, promptOptions) => (await live()?.getPrompt(name, args, promptOptions)) ?? down(),
    complete: async (ref, argument, context) => (await live()?.complete(ref, argument, context)) ?? down(),
  };
}

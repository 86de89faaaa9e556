// Prompts of the upstream servers, for one MCP session: listed from every ready server whose prompts the
// session's policy admits (its verdict on the server's `get_prompt`, see `create-tool-search-mcp-server`),
// named per `upstream-names`, and each `prompts/get` or prompt completion routed to its server. A prompt of a
// server the session may not use is answered exactly like one that does not exist.
import { ProtocolErrorCode as ErrorCode, type GetPromptResult, type Prompt } from '@modelcontextprotocol/server';
import type { HostMcpServer, McpPrompt } from '@tool-search/gateway-adapter';
import type { Logger } from 'pino';
import { protocolError } from './protocol-error.js';
import { toMcpContentBlock } from './to-sdk-results.js';
import { PROMPT_NAME_SEPARATOR, qualifyPromptName, SERVER_META_KEY, sharedKeys } from './upstream-names.js';

export interface UpstreamPrompts {
  /** Each listed prompt names its server in `_meta`. */
  list(): Promise<Prompt[]>;
  get(name: string, args: Record<string, string> | undefined, signal: AbortSignal): Promise<GetPromptResult>;
  /** The server and upstream name behind a listed (or qualified) prompt name. */
  resolve(name: string): Promise<{ server: HostMcpServer; name: string } | undefined>;
}

export function createUpstreamPrompts(options: { servers: () => HostMcpServer[]; allowed: (server: string) => boolean; log: Logger }): UpstreamPrompts {
  const { log } = options;
  /** Listed name → its server and upstream name, from the last listing. */
  let byListedName = new Map<string, { server: string; name: string }>();

  const usable = () => options.servers().filter((server) => server.state === 'ready' && options.allowed(server.name));

  async function listAll(): Promise<Array<{ server: string; prompt: McpPrompt; listedName: string }>> {
    const lists = await Promise.all(usable().map(async (server) => ({ server: server.name, listed: await server.listPrompts() })));
    const entries: Array<{ server: string; prompt: McpPrompt }> = [];
    for (const { server, listed } of lists) {
      if (!listed.ok) {
        if (listed.code !== 'unsupported') log.warn({ server, code: listed.code, reason: listed.message.slice(0, 300) }, 'listing prompts failed');
        continue;
      }
      for (const prompt of listed.items) entries.push({ server, prompt });
    }
    const shared = sharedKeys(entries.map(({ server, prompt }) => [server, prompt.name] as const));
    const named = entries.map((entry) => ({ ...entry, listedName: shared.has(entry.prompt.name) ? qualifyPromptName(entry.server, entry.prompt.name) : entry.prompt.name }));
    byListedName = new Map(named.map((entry) => [entry.listedName, { server: entry.server, name: entry.prompt.name }]));
    return named;
  }

  async function resolve(name: string): Promise<{ server: HostMcpServer; name: string } | undefined> {
    if (!byListedName.has(name)) await listAll();
    const servers = usable();
    const listed = byListedName.get(name);
    if (listed !== undefined) {
      const server = servers.find((candidate) => candidate.name === listed.server);
      return server === undefined ? undefined : { server, name: listed.name };
    }
    // The qualified form of any prompt is accepted, shared or not.
    for (const server of servers) {
      const prefix = `${server.name}${PROMPT_NAME_SEPARATOR}`;
      if (!name.startsWith(prefix)) continue;
      const upstream = name.slice(prefix.length);
      if ([...byListedName.values()].some((entry) => entry.server === server.name && entry.name === upstream)) return { server, name: upstream };
    }
    return undefined;
  }

  return {
    async list() {
      return (await listAll()).map(({ server, prompt, listedName }) => ({ ...prompt, name: listedName, _meta: { [SERVER_META_KEY]: server } }));
    },
    async get(name, args, signal) {
      const target = await resolve(name);
      if (target === undefined) throw protocolError(ErrorCode.InvalidParams, `Prompt not found: ${name.slice(0, 300)}`);
      const got = await target.server.getPrompt(target.name, args, { signal });
      if (!got.ok) throw protocolError(got.code === 'unsupported' ? ErrorCode.InvalidParams : ErrorCode.InternalError, got.message);
      return {
        ...(got.description === undefined ? {} : { description: got.description }),
        messages: got.messages.map((message) => ({ role: message.role, content: toMcpContentBlock(message.part) })),
      };
    },
    resolve,
  };
}

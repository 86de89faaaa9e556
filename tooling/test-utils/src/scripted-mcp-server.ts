// A real MCP SDK server over Streamable HTTP on 127.0.0.1, in this process, whose tools, resources and prompts a
// test sets and changes as it goes: `setTools` sends `notifications/tools/list_changed`, `restart` drops every
// connection and serves a fresh SDK server on the same port (the host sees the server die and come back), so a
// property can script a server's life between calls without a child process.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { HttpServerConfig } from './server-config.js';

/** One tool the scripted server lists, with the MCP annotation hints it states (absent: not stated). */
export interface ScriptedMcpTool {
  name: string;
  description: string;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
}

/** What the scripted server offers besides tools (each prompt has one argument, `topic`, completed from `completions`). */
export interface ScriptedMcpExtras {
  resources?: Array<{ uri: string; name: string; description: string }>;
  /** Resource templates (offered with `resources`); `completion/complete` on one offers `completions` too. */
  resourceTemplates?: Array<{ uriTemplate: string; name: string; description: string }>;
  prompts?: Array<{ name: string; description: string }>;
  /** The values `completion/complete` offers for a prompt's `topic` argument. */
  completions?: string[];
  /** The `instructions` the server sends in `initialize` (the host makes them its tools' owner context). */
  instructions?: string;
}

export interface ScriptedMcpServer {
  /** The config a host connects with (`restartBackoff` of the host decides how soon it reconnects after `restart`). */
  config(options?: { trusted?: boolean }): HttpServerConfig;
  readonly name: string;
  /** Replaces the tool list and notifies every connected client (`notifications/tools/list_changed`). */
  setTools(tools: readonly ScriptedMcpTool[]): Promise<void>;
  /** Drops every connection and serves a fresh SDK server on the same port, listing `tools` (default: the current ones). */
  restart(tools?: readonly ScriptedMcpTool[]): Promise<void>;
  /** How many MCP sessions clients have opened (a reconnect opens one more). */
  readonly sessionsOpened: number;
  /** Every `tools/call` the server answered, with the request's `params._meta` (where a trace context rides). */
  readonly calls: ReadonlyArray<{ name: string; meta: Record<string, unknown> | undefined }>;
  close(): Promise<void>;
}

/** Starts a scripted server named `name` (the host's owner segment of its tools). */
export async function startScriptedMcpServer(name: string, tools: readonly ScriptedMcpTool[], extras: ScriptedMcpExtras = {}): Promise<ScriptedMcpServer> {
  let current = [...tools];
  const transports = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();
  let sessionsOpened = 0;
  const calls: Array<{ name: string; meta: Record<string, unknown> | undefined }> = [];

  const newSdkServer = () => {
    // Only what `extras` offers is declared: a server with resources gets a `read_resource` tool on the host.
    const server = new Server(
      { name, version: '1.0.0' },
      {
        capabilities: {
          tools: { listChanged: true },
          ...(extras.resources === undefined ? {} : { resources: {} }),
          ...(extras.prompts === undefined ? {} : { prompts: {} }),
          ...(extras.completions === undefined ? {} : { completions: {} }),
        },
        ...(extras.instructions === undefined ? {} : { instructions: extras.instructions }),
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: current.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: { type: 'object' as const, properties: { text: { type: 'string' } } }, ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }) })),
    }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      calls.push({ name: request.params.name, meta: request.params._meta });
      return { content: [{ type: 'text', text: `ran ${name}/${request.params.name} ${JSON.stringify(request.params.arguments ?? {})}` }] };
    });
    if (extras.resources !== undefined) {
      server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: (extras.resources ?? []).map((resource) => ({ ...resource, mimeType: 'text/plain' })) }));
      server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: extras.resourceTemplates ?? [] }));
      server.setRequestHandler(ReadResourceRequestSchema, (request) => ({ contents: [{ uri: request.params.uri, mimeType: 'text/plain', text: `contents of ${request.params.uri}` }] }));
    }
    if (extras.prompts !== undefined) {
      server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: (extras.prompts ?? []).map((prompt) => ({ ...prompt, arguments: [{ name: 'topic', required: false }] })) }));
      server.setRequestHandler(GetPromptRequestSchema, (request) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text: `prompt ${name}/${request.params.name}` } }] }));
    }
    if (extras.completions !== undefined) {
      server.setRequestHandler(CompleteRequestSchema, (request) => ({
        completion: { values: (extras.completions ?? []).filter((value) => value.startsWith(request.params.argument.value)), hasMore: false },
      }));
    }
    return server;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    if (request.method === 'POST') for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = chunks.length === 0 ? undefined : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
    const sessionHeader = request.headers['mcp-session-id'];
    const existing = typeof sessionHeader === 'string' ? transports.get(sessionHeader) : undefined;
    if (existing !== undefined) return existing.transport.handleRequest(request, response, body);
    if (typeof sessionHeader === 'string') {
      response.writeHead(404).end('Session not found');
      return;
    }
    const server = newSdkServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessionsOpened += 1;
        transports.set(id, { transport, server });
      },
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  };

  const listen = async (port: number) => {
    const http = createServer((request, response) => {
      handle(request, response).catch(() => {
        if (!response.headersSent) response.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
    return http;
  };
  let http = await listen(0);
  const port = (http.address() as AddressInfo).port;

  const stop = async () => {
    const sessions = [...transports.values()];
    transports.clear();
    await Promise.all(sessions.map(({ server }) => server.close().catch(() => undefined)));
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
  };

  return {
    name,
    config: (options = {}) => ({ name, transport: 'http', url: `http://127.0.0.1:${port}/mcp`, ...(options.trusted === undefined ? {} : { trusted: options.trusted }) }),
    async setTools(next) {
      current = [...next];
      await Promise.all([...transports.values()].map(({ server }) => server.sendToolListChanged().catch(() => undefined)));
    },
    async restart(next) {
      await stop();
      if (next !== undefined) current = [...next];
      http = await listen(port);
    },
    get sessionsOpened() {
      return sessionsOpened;
    },
    calls,
    close: stop,
  };
}

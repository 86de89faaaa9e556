// The gateway: an HTTP server with an OpenAI-compatible `POST /v1/responses`. It keeps one tool-search host
// for its lifetime (plugins loaded and MCP servers started once); each request is one run: a session opened on
// that host with the request's client tools, the agent loop against the configured provider (OpenAI Responses
// or Chat Completions, or Anthropic Messages, each through its official client), and a JSON-lines session log
// under the state folder.
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { pino, type Logger } from 'pino';
import { z } from 'zod';
import {
  createToolSearchHost,
  isGatewayAdapterError,
  mcpServerConfigSchema,
  resolveToolSearchConfig,
  type ClientTool,
  type McpServerConfig,
  type ResolvedToolSearchConfig,
  type Telemetry,
  type ToolSearchEnv,
  type ToolSearchHost,
  type ToolSearchSession,
} from '@tool-search/gateway-adapter';
import { isModesError } from '@tool-search/modes';
import { probeRuntime } from '@tool-search/sandbox-runner';
import { createPolicy, isPolicyError, parsePolicyConfig, type ApprovalProvider, type BeforeToolCallHook, type Policy } from '@tool-search/policy';
import { E2eError } from './errors.js';
import { listenLocal, readBody, sendJson } from './internal/http-json.js';
import { loadGatewayConfig, type GatewayConfig, type GatewayProviderConfig } from './load-gateway-config.js';
import { runAgentLoop, type AgentLoopResult } from './run-agent-loop.js';

/** Options for `startGateway`. */
export interface StartGatewayOptions {
  /** Path of the JSON5 config file. */
  configPath: string;
  logger?: Logger;
  /** `before_tool_call` hooks for every run (code, not config). */
  hooks?: readonly BeforeToolCallHook[];
  /** The approval provider for every run. */
  approvals?: ApprovalProvider;
  /** Environment for `resolveToolSearchConfig` (`TOOL_SEARCH_MODE`); default none, so the config file decides. */
  env?: ToolSearchEnv;
}

/** What the gateway kept about one run (also returned to the caller under `tool_search`). */
export interface GatewayRunRecord {
  runId: string;
  sessionLogPath: string;
  telemetry: Telemetry;
  turns: number;
  text: string;
  toolCalls: AgentLoopResult['toolCalls'];
  /** The provider's own tool searches the session answered (native mode). */
  nativeSearches: AgentLoopResult['nativeSearches'];
  wallTimeMs: number;
}

/** A running gateway. */
export interface Gateway {
  /** Base URL for the official client, e.g. `http://127.0.0.1:PORT/v1`. */
  readonly baseURL: string;
  readonly config: GatewayConfig;
  /** Every completed run so far. */
  runs(): GatewayRunRecord[];
  close(): Promise<void>;
}

// A third-party payload: only the fields the gateway reads.
const requestSchema = z.object({
  model: z.string().optional(),
  instructions: z.string().nullish(),
  input: z.union([
    z.string(),
    z.array(
      z.looseObject({
        role: z.string().optional(),
        type: z.string().optional(),
        content: z.union([z.string(), z.array(z.looseObject({ text: z.string().optional() }))]).optional(),
      }),
    ),
  ]),
  tools: z
    .array(
      z.looseObject({
        type: z.literal('function'),
        name: z.string(),
        description: z.string().nullish(),
        parameters: z.record(z.string(), z.unknown()).nullish(),
      }),
    )
    .optional(),
  stream: z.boolean().optional(),
});

type GatewayRequest = z.infer<typeof requestSchema>;

function userText(input: GatewayRequest['input']): string {
  if (typeof input === 'string') return input;
  return input
    .filter((item) => item.role === 'user')
    .map((item) => (typeof item.content === 'string' ? item.content : (item.content ?? []).map((part) => part.text ?? '').join('')))
    .join('\n');
}

function clientToolsOf(request: GatewayRequest): ClientTool[] {
  return (request.tools ?? []).map((tool) => ({
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    ...(tool.parameters ? { inputSchema: tool.parameters } : {}),
  }));
}

/** The official client of the configured wire format (no retries: a failure is reported, not hidden). */
function providerClient(provider: GatewayProviderConfig): OpenAI | Anthropic {
  const options = { apiKey: provider.apiKey, baseURL: provider.baseURL, maxRetries: 0, timeout: 30_000 };
  return provider.api === 'anthropic' ? new Anthropic(options) : new OpenAI(options);
}

function sendError(response: ServerResponse, status: number, type: string, message: string, code: string | null): void {
  sendJson(response, status, { error: { message, type, param: null, code } });
}

/** The OpenAI-shaped response for one finished run; client tool calls come back as `function_call` items. */
function toResponse(runId: string, model: string, result: AgentLoopResult, record: GatewayRunRecord): Record<string, unknown> {
  const output: Record<string, unknown>[] = result.clientCalls.map((call) => ({
    type: 'function_call',
    id: `fc_${call.callId}`,
    call_id: call.callId,
    name: call.name,
    arguments: call.arguments,
    status: 'completed',
  }));
  if (result.clientCalls.length === 0) {
    output.push({
      type: 'message',
      id: `msg_${runId}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: result.text, annotations: [] }],
    });
  }
  return {
    id: `resp_${runId}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model,
    status: result.truncated ? 'incomplete' : 'completed',
    incomplete_details: result.truncated ? { reason: 'max_turns' } : null,
    error: null,
    output,
    tool_search: record,
  };
}

/**
 * Starts the gateway on 127.0.0.1 (OS-chosen port) from a JSON5 config file. The config is read and
 * validated once, at start; `tools.toolSearch` and the policy are resolved then too, so a bad config fails here.
 */
export async function startGateway(options: StartGatewayOptions): Promise<Gateway> {
  const log = (options.logger ?? pino({ level: 'silent' })).child({ component: 'gateway' });
  const config = await loadGatewayConfig(options.configPath);
  let toolSearchConfig: ResolvedToolSearchConfig;
  let policy: Policy;
  try {
    toolSearchConfig = resolveToolSearchConfig(config.tools.toolSearch, options.env ?? {});
    policy = createPolicy(parsePolicyConfig(config.policy ?? {}), {
      logger: log,
      ...(options.hooks ? { hooks: options.hooks } : {}),
      ...(options.approvals ? { approvals: options.approvals } : {}),
    });
  } catch (error) {
    if (isGatewayAdapterError(error) || isPolicyError(error)) {
      throw new E2eError('config_invalid', `gateway config ${options.configPath}: ${error.message}`, { cause: error });
    }
    throw error;
  }
  const mcpServers: McpServerConfig[] = config.mcp.servers.map((server, index) => {
    const parsed = mcpServerConfigSchema.safeParse(server);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    throw new E2eError('config_invalid', `gateway config ${options.configPath}: mcp.servers.${index}.${issue.path.join('.')}: ${issue.message}`);
  });
  const sessionsDir = join(config.stateDir, 'sessions');
  await mkdir(sessionsDir, { recursive: true });
  const client = providerClient(config.provider);
  const runs: GatewayRunRecord[] = [];
  const nodePath = config.sandbox.nodePath;
  let host: ToolSearchHost;
  try {
    host = await createToolSearchHost({
      sources: { plugins: config.plugins, mcp: mcpServers },
      logger: log,
      ...(nodePath ? { probe: () => probeRuntime({ nodePath }) } : {}),
    });
  } catch (error) {
    if (isGatewayAdapterError(error)) throw new E2eError('config_invalid', `gateway config ${options.configPath}: ${error.message}`, { cause: error });
    throw error;
  }

  async function handleRun(body: GatewayRequest, response: ServerResponse): Promise<void> {
    const runId = randomUUID();
    const runLog = log.child({ runId });
    const sessionLogPath = join(sessionsDir, `${runId}.jsonl`);
    const started = performance.now();
    let session: ToolSearchSession;
    try {
      session = await host.openSession({
        config: toolSearchConfig,
        policy,
        context: { ...config.context, sessionId: runId },
        client: clientToolsOf(body),
        logger: runLog,
        sessionLog: { path: sessionLogPath },
        sessionId: runId,
      });
    } catch (error) {
      // Bad client tools for this run (colliding with a catalog or control name) are the caller's problem:
      // 400 with the package's message and code.
      if (isGatewayAdapterError(error) || isModesError(error) || isPolicyError(error)) {
        runLog.warn({ code: error.code }, 'session rejected');
        sendError(response, 400, 'invalid_request_error', error.message, error.code);
        return;
      }
      throw error;
    }
    let result: AgentLoopResult;
    try {
      result = await runAgentLoop({
        client,
        provider: config.provider,
        session,
        input: userText(body.input),
        ...(body.instructions ? { instructions: body.instructions } : {}),
        maxTurns: config.agent.maxTurns,
        logger: runLog,
      });
    } catch (error) {
      await session.close();
      if (error instanceof OpenAI.APIError || error instanceof Anthropic.APIError) {
        runLog.warn({ status: error.status }, 'provider request failed');
        sendError(response, 502, 'provider_error', `provider request failed: ${error.message}`, 'provider_failed');
        return;
      }
      throw error;
    }
    const telemetry = session.telemetry();
    // Close before answering, so the session log (with its summary line) is complete when the caller reads it.
    await session.close();
    const record: GatewayRunRecord = {
      runId,
      sessionLogPath,
      telemetry,
      turns: result.turns,
      text: result.text,
      toolCalls: result.toolCalls,
      nativeSearches: result.nativeSearches,
      wallTimeMs: Math.round(performance.now() - started),
    };
    runs.push(record);
    sendJson(response, 200, toResponse(runId, body.model ?? config.provider.model, result, record));
  }

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (request.method === 'GET' && url.pathname === '/health') {
        sendJson(response, 200, { ok: true });
        return;
      }
      if (request.method !== 'POST' || url.pathname !== '/v1/responses') {
        sendError(response, 404, 'not_found', `no route for ${request.method} ${url.pathname}`, null);
        return;
      }
      let body: GatewayRequest;
      try {
        const parsed = requestSchema.safeParse(JSON.parse(await readBody(request)));
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          sendError(response, 400, 'invalid_request_error', `invalid request at ${issue.path.join('.') || '(root)'}: ${issue.message}`, null);
          return;
        }
        body = parsed.data;
      } catch {
        sendError(response, 400, 'invalid_request_error', 'request body is not JSON', null);
        return;
      }
      if (body.stream) {
        sendError(response, 400, 'invalid_request_error', 'this gateway answers with JSON only: stream must be false', null);
        return;
      }
      await handleRun(body, response);
    })().catch((error: unknown) => {
      log.error({ err: error }, 'gateway request failed');
      if (!response.headersSent) {
        sendError(response, 500, 'server_error', `gateway failed: ${error instanceof Error ? error.message : String(error)}`, 'gateway_failed');
      } else response.end();
    });
  });
  const { baseURL, close } = await listenLocal(server);
  return {
    baseURL,
    config,
    runs: () => [...runs],
    async close() {
      await close();
      await host.close();
    },
  };
}

import { randomUUID } from 'node:crypto';
import { createCatalog, parseToolId, TOOL_NAME_PATTERN, toolId, type Catalog, type DescribeResult, type SearchHit, type ToolInput } from '@tool-search/catalog';
import {
  measureSurface,
  renderSurface,
  toProviderTools,
  TOOL_CALL,
  TOOL_DESCRIBE,
  TOOL_SEARCH,
  TOOL_SEARCH_CODE,
  CONTROL_TOOL_NAMES,
  toolCallArgsSchema,
  toolDescribeArgsSchema,
  toolSearchArgsSchema,
  toolSearchCodeArgsSchema,
  type ProviderTool,
  type Surface,
  type SurfaceFormat,
} from '@tool-search/modes';
import {
  createPolicy,
  type ApprovalProvider,
  type BeforeToolCallHook,
  type Policy,
  type PolicyConfig,
  type PolicyContext,
  type PolicyTimeouts,
  type PolicyTool,
} from '@tool-search/policy';
import { createRunner, probeRuntime, type Runner } from '@tool-search/sandbox-runner';
import pino, { type Logger } from 'pino';
import { connectMcpServer, type McpServerConnection, type McpToolDefinition } from './connect-mcp-server.js';
import { createArgsValidator } from './create-args-validator.js';
import { createSessionLog, type SessionLog, type SessionLogTarget } from './create-session-log.js';
import { decideToolSearchMode, type RuntimeProbe, type ToolSearchModeDecision } from './decide-tool-search-mode.js';
import { GatewayAdapterError } from './errors.js';
import type { ClientTool, ExecutableTool } from './executable-tool.js';
import { formatZodError } from './internal/format-zod-error.js';
import { loadPluginTools, type PluginSpec } from './load-plugin-tools.js';
import { renderToolResult, stringifyResult } from './render-tool-result.js';
import { repairFlattenedArgs } from './repair-flattened-args.js';
import { resolveToolSearchConfig, type ResolvedToolSearchConfig, type ToolSearchEnv } from './resolve-tool-search-config.js';
import { mcpServerConfigSchema, type McpServerConfig } from './schemas.js';
import type { CallRoute, FinalCallRecord, Telemetry } from './telemetry.js';
import type { ErrorOutcome, OutcomeKind, ToolCallErrorCode, ToolCallOutcome, ToolRef } from './tool-call-outcome.js';

/** The tools of one run, by source, in the order the catalog is built. */
export interface ToolSearchSources {
  /** OpenClaw core tools (owner `core` unless a tool names its own). */
  openclaw?: ExecutableTool[];
  /** Plugin modules loaded by path (see `loadPluginTools`); owner = plugin name. */
  plugins?: PluginSpec[];
  /** MCP servers to connect (stdio children or Streamable HTTP); owner = server name. */
  mcp?: McpServerConfig[];
  /** Tools executed by the caller: their calls come back as `{ status: 'client' }` outcomes. */
  client?: ClientTool[];
}

/** Options of `createToolSearchSession`. */
export interface CreateToolSearchSessionOptions {
  /** The `tools.toolSearch` setting (raw, or the output of `resolveToolSearchConfig`). */
  config: unknown;
  /** A compiled policy, or a policy config to compile. Default: an empty policy (every tool eligible). */
  policy?: Policy | PolicyConfig;
  /** Who is asking, for this run. */
  context?: PolicyContext;
  sources: ToolSearchSources;
  /** Ids (or unique names) of allowed tools to keep directly visible in every mode (pinned). */
  visible?: string[];
  /** A sandbox runner for code mode; by default one is created (and closed with the session) when needed. */
  runner?: Runner;
  /** Replaces `probeRuntime` for the code-mode decision (tests, hosts with their own probe). */
  probe?: () => Promise<RuntimeProbe>;
  logger?: Logger;
  /** Where the session log goes: a file path, a stream, or a `SessionLog`. */
  sessionLog?: SessionLogTarget | SessionLog;
  /** `before_tool_call` hooks for every call (after the policy's own). */
  hooks?: readonly BeforeToolCallHook[];
  /** The approval provider for calls that need one. */
  approvals?: ApprovalProvider;
  /** Limits for hooks and approvals (passed to `authorizeCall`). */
  authorizeTimeoutMs?: number | PolicyTimeouts;
  /** Timeout of one tool execution (local or MCP). Default 30,000 ms. */
  callTimeoutMs?: number;
  /** Timeout of MCP connect and list requests. Default 30,000 ms. */
  mcpRequestTimeoutMs?: number;
  /** Base folder for relative plugin paths. Default `process.cwd()`. */
  cwd?: string;
  /** Environment for `resolveToolSearchConfig` (`TOOL_SEARCH_MODE`). Default: none. */
  env?: ToolSearchEnv;
  sessionId?: string;
}

/** One tool call from the model. `args` may be an object or its JSON text. */
export interface ToolCallRequest {
  name: string;
  args: unknown;
  toolCallId: string;
}

/** What to send the model in one provider format. */
export interface RenderedSurface {
  mode: Surface['mode'];
  /** The tools in the provider's own shape (OpenAI Chat, OpenAI Responses or Anthropic). */
  tools: ProviderTool[];
  instructions: string;
}

/** One run's tool-search session: the surface to send, and the executor for the model's tool calls. */
export interface ToolSearchSession {
  readonly sessionId: string;
  /** The mode decision (and fallback reason) made at creation. */
  readonly decision: ToolSearchModeDecision;
  surface(format: SurfaceFormat): RenderedSurface;
  execute(request: ToolCallRequest): Promise<ToolCallOutcome>;
  telemetry(): Telemetry;
  close(): Promise<void>;
}

type Entry =
  | { kind: 'local'; input: ToolInput; ownerOnly: boolean; tool: ExecutableTool }
  | { kind: 'mcp'; input: ToolInput; ownerOnly: boolean; server: McpServerConnection; toolName: string }
  | { kind: 'client'; input: ToolInput; ownerOnly: boolean };

const DEFAULT_CALL_TIMEOUT_MS = 30_000;
const MAX_DESCRIPTION_CHARS = 20_000;

const inputId = (input: Pick<ToolInput, 'source' | 'owner' | 'name'>) => toolId(input.source, input.owner, input.name);
const isPolicy = (value: unknown): value is Policy =>
  typeof value === 'object' && value !== null && typeof (value as Policy).check === 'function' && typeof (value as Policy).authorizeCall === 'function';

/**
 * Creates the session for one run: loads plugins, connects MCP servers, applies the policy, builds the
 * catalog of allowed tools, decides the mode (code falls back to tools without a sandbox runtime) and
 * routes every tool call through `authorizeCall`, argument validation and the tool.
 */
export async function createToolSearchSession(options: CreateToolSearchSessionOptions): Promise<ToolSearchSession> {
  const sessionId = options.sessionId ?? randomUUID();
  const log = (options.logger ?? pino({ level: 'silent' })).child({ pkg: 'gateway-adapter', sessionId });
  const config: ResolvedToolSearchConfig = resolveToolSearchConfig(options.config, options.env);
  const policy: Policy = isPolicy(options.policy) ? options.policy : createPolicy(options.policy ?? {}, { logger: log });
  const context: PolicyContext = options.context ?? {};
  const sessionLog: SessionLog | undefined =
    options.sessionLog === undefined
      ? undefined
      : 'write' in options.sessionLog
        ? options.sessionLog
        : createSessionLog(options.sessionLog, { sessionId });
  const event: SessionLog['write'] = (name, fields) => sessionLog?.write(name, fields);
  const callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const validator = createArgsValidator();
  const sessionAbort = new AbortController();

  // ---- sources -------------------------------------------------------------------------------------
  const sources = options.sources ?? {};
  const mcpConfigs = (sources.mcp ?? []).map((server, index) => {
    const parsed = mcpServerConfigSchema.safeParse(server);
    if (!parsed.success) {
      const { message, path } = formatZodError(parsed.error, `sources.mcp[${index}]`);
      throw new GatewayAdapterError('invalid_options', `Invalid MCP server config: ${message}`, { path });
    }
    return parsed.data;
  });
  const plugins = await loadPluginTools(sources.plugins ?? [], options.cwd === undefined ? {} : { cwd: options.cwd });

  const entries = new Map<string, Entry>();
  /** MCP tools whose server went away: calls fail naming the server instead of "unknown". */
  const unavailable = new Map<string, string>();
  const addEntry = (entry: Entry, where: string) => {
    const id = inputId(entry.input);
    if (entries.has(id)) throw new GatewayAdapterError('invalid_options', `Duplicate tool id ${id} (${where})`, { path: where });
    entries.set(id, entry);
  };
  const localInput = (tool: ExecutableTool, source: 'openclaw' | 'plugin', owner: string): ToolInput => {
    const input: ToolInput = { name: tool.name, source, owner: tool.owner ?? owner };
    if (tool.description !== undefined) input.description = tool.description;
    if (tool.inputSchema !== undefined) input.inputSchema = tool.inputSchema;
    if (tool.outputSchema !== undefined) input.outputSchema = tool.outputSchema;
    if (tool.tags !== undefined) input.tags = tool.tags;
    return input;
  };
  (sources.openclaw ?? []).forEach((tool, index) =>
    addEntry({ kind: 'local', input: localInput(tool, 'openclaw', 'core'), ownerOnly: tool.ownerOnly === true, tool }, `sources.openclaw[${index}]`),
  );
  for (const plugin of plugins) {
    plugin.tools.forEach((tool, index) =>
      addEntry(
        { kind: 'local', input: localInput(tool, 'plugin', plugin.name), ownerOnly: tool.ownerOnly === true, tool },
        `sources.plugins(${plugin.name})[${index}]`,
      ),
    );
  }

  const servers = new Map<string, McpServerConnection>();
  const mcpInput = (server: string, definition: McpToolDefinition): ToolInput => {
    const input: ToolInput = {
      name: definition.name,
      source: 'mcp',
      owner: server,
      description: definition.description.slice(0, MAX_DESCRIPTION_CHARS),
      inputSchema: definition.inputSchema,
    };
    if (definition.outputSchema !== undefined) input.outputSchema = definition.outputSchema;
    return input;
  };
  let surfaceVersion = 0;

  (sources.client ?? []).forEach((tool, index) => {
    const input: ToolInput = { name: tool.name, source: 'client', owner: tool.owner ?? 'client' };
    if (tool.description !== undefined) input.description = tool.description;
    if (tool.inputSchema !== undefined) input.inputSchema = tool.inputSchema;
    addEntry({ kind: 'client', input, ownerOnly: tool.ownerOnly === true }, `sources.client[${index}]`);
  });

  // ---- policy first, then the catalog of what is allowed -------------------------------------------
  const policyTool = (id: string, entry: Entry): PolicyTool => ({
    id,
    name: entry.input.name,
    source: entry.input.source,
    owner: entry.input.owner,
    ownerOnly: entry.ownerOnly,
  });
  /** Keeps only the entries the policy admits; everything else is forgotten, never searchable or callable. */
  const admit = (candidates: [string, Entry][]): [string, Entry][] => {
    const allowed = new Set(policy.filter(candidates.map(([id, entry]) => policyTool(id, entry)), context).map((tool) => tool.id));
    for (const [id] of candidates) if (!allowed.has(id)) entries.delete(id);
    return candidates.filter(([id]) => allowed.has(id));
  };
  const localCandidates = [...entries];
  const admittedLocal = admit(localCandidates);
  log.info({ candidates: localCandidates.length, allowed: admittedLocal.length }, 'policy applied to local and client tools');

  const catalog: Catalog = createCatalog(
    admittedLocal.filter(([, entry]) => entry.kind !== 'client').map(([, entry]) => entry.input),
    { logger: log, searchDefaultLimit: config.searchDefaultLimit, maxSearchLimit: config.maxSearchLimit, reservedNames: CONTROL_TOOL_NAMES },
  );
  const addMcpToCatalog = (inputs: ToolInput[]) => {
    if (inputs.length === 0) return;
    // One malformed server tool must not take the others down: the catalog reports it and takes the rest.
    for (const rejected of catalog.add(inputs).rejected) {
      const input = inputs[rejected.index] as ToolInput;
      entries.delete(inputId(input));
      log.warn({ toolId: inputId(input), err: rejected.message }, 'mcp tool rejected by the catalog');
    }
  };

  // ---- MCP servers: connected after the catalog exists, so list changes always have somewhere to go ---
  const seenServers = new Set<string>();
  mcpConfigs.forEach((server, index) => {
    if (seenServers.has(server.name)) {
      throw new GatewayAdapterError('invalid_options', `Duplicate MCP server name "${server.name}"`, { path: `sources.mcp[${index}].name` });
    }
    seenServers.add(server.name);
  });
  const connections = await Promise.all(
    mcpConfigs.map((server) =>
      connectMcpServer(server, {
        logger: log,
        ...(options.mcpRequestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.mcpRequestTimeoutMs }),
        onToolsChanged: (change) => applyMcpChange(server.name, change),
        onUnavailable: (reason) => markServerUnavailable(server.name, reason),
      }),
    ),
  );
  for (const connection of connections) {
    servers.set(connection.name, connection);
    if (connection.status !== 'connected') {
      event('mcp.unavailable', { server: connection.name, reason: connection.failure });
      continue;
    }
    const usable = connection.tools().filter((definition) => {
      // A name that cannot form an id (`:`, spaces, too long) is skipped, not allowed to break the run.
      if (TOOL_NAME_PATTERN.test(definition.name)) return true;
      log.warn({ server: connection.name, tool: definition.name.slice(0, 200) }, 'mcp tool with an unusable name skipped');
      return false;
    });
    const serverCandidates: [string, Entry][] = usable.map((definition) => {
      const entry: Entry = { kind: 'mcp', input: mcpInput(connection.name, definition), ownerOnly: false, server: connection, toolName: definition.name };
      addEntry(entry, `mcp(${connection.name})`);
      return [inputId(entry.input), entry];
    });
    addMcpToCatalog(admit(serverCandidates).map(([, entry]) => entry.input));
  }

  function applyMcpChange(server: string, change: { added: McpToolDefinition[]; removed: string[] }): void {
    const connection = servers.get(server);
    // Only tools that were admitted are reported as gone (to calls and to the log); anything else stays unknown.
    const removedIds = change.removed.map((name) => toolId('mcp', server, name)).filter((id) => entries.delete(id));
    for (const id of removedIds) unavailable.set(id, `Tool ${id} was removed by MCP server "${server}"`);
    catalog.remove(removedIds);
    const added: ToolInput[] = [];
    for (const definition of change.added) {
      if (!connection) break;
      if (!TOOL_NAME_PATTERN.test(definition.name)) continue;
      const entry: Entry = { kind: 'mcp', input: mcpInput(server, definition), ownerOnly: false, server: connection, toolName: definition.name };
      const id = inputId(entry.input);
      // The same gate as at start: a tool outside policy never enters the catalog.
      if (!policy.check(policyTool(id, entry), context).allowed || entries.has(id)) continue;
      entries.set(id, entry);
      unavailable.delete(id);
      added.push(entry.input);
    }
    addMcpToCatalog(added);
    surfaceVersion += 1;
    event('mcp.tools_changed', { server, added: added.map(inputId), removed: removedIds });
  }

  function markServerUnavailable(server: string, reason: string): void {
    const gone = [...entries].filter(([, entry]) => entry.kind === 'mcp' && entry.input.owner === server).map(([id]) => id);
    for (const id of gone) {
      entries.delete(id);
      unavailable.set(id, `MCP server "${server}" is unavailable: ${reason}`);
    }
    catalog.remove(gone);
    surfaceVersion += 1;
    event('mcp.unavailable', { server, reason, tools: gone.length });
  }

  // ---- visible (pinned) tools ----------------------------------------------------------------------
  const visibleIds: string[] = [];
  for (const wanted of options.visible ?? []) {
    const matches = entries.has(wanted) ? [wanted] : [...entries].filter(([, entry]) => entry.input.name === wanted).map(([entryId]) => entryId);
    const resolved = matches.length === 1 ? matches[0] : undefined;
    const entry = resolved === undefined ? undefined : entries.get(resolved);
    // Unknown, ambiguous or policy-denied names are dropped silently: pinning never widens policy.
    if (resolved !== undefined && entry && entry.kind !== 'client' && !visibleIds.includes(resolved)) visibleIds.push(resolved);
    else log.debug({ visible: wanted }, 'visible tool not pinned');
  }

  // ---- mode ----------------------------------------------------------------------------------------
  const decision = await decideToolSearchMode(config, { probe: options.probe ?? (() => probeRuntime()) });
  if (decision.fallbackReason !== undefined) {
    log.warn({ requestedMode: decision.requestedMode, mode: decision.mode, reason: decision.fallbackReason }, 'code mode unavailable, falling back');
    event('fallback', { requestedMode: decision.requestedMode, mode: decision.mode, reason: decision.fallbackReason });
  }
  let runner: Runner | undefined = options.runner;
  const ownsRunner = decision.mode === 'code' && runner === undefined;
  // A session's own runner keeps one child warm: a run rarely needs more than one at a time.
  if (ownsRunner) runner = createRunner({ logger: log, pool: { size: 1 }, ...(decision.runtime ? { nodePath: decision.runtime.nodePath } : {}) });

  // ---- telemetry -----------------------------------------------------------------------------------
  const counts: Telemetry['counts'] = { searches: 0, describes: 0, calls: 0, codeRuns: 0, hydrations: 0, blocked: 0, errors: 0 };
  const finalCalls: FinalCallRecord[] = [];
  let surfaceTelemetry: Telemetry['surface'];

  const clientInputs = () => [...entries.values()].filter((entry) => entry.kind === 'client').map((entry) => entry.input);
  let rendered: { version: number; surface: Surface; byName: Map<string, string> } | undefined;
  /** Every name ever declared, so a call to a tool that went away since says so instead of "unknown". */
  const declaredEver = new Map<string, string>();
  const currentSurface = (): { surface: Surface; byName: Map<string, string> } => {
    if (rendered && rendered.version === surfaceVersion) return rendered;
    const surface = renderSurface({
      mode: decision.mode,
      catalog: catalog,
      visible: visibleIds.filter((id) => entries.has(id)).map((id) => entries.get(id)!.input),
      clientTools: clientInputs(),
      limits: { searchDefaultLimit: config.searchDefaultLimit, maxSearchLimit: config.maxSearchLimit, codeTimeoutMs: config.codeTimeoutMs },
      directory: config.directory,
    });
    const byName = new Map<string, string>();
    for (const tool of surface.tools) {
      if (tool.id === undefined) continue;
      byName.set(tool.name, tool.id);
      declaredEver.set(tool.name, tool.id);
    }
    rendered = { version: surfaceVersion, surface, byName };
    return rendered;
  };
  // Render once now: a client tool colliding with a catalog name fails session creation, not the first turn.
  // A session that fails to start leaves nothing running behind it.
  try {
    currentSurface();
  } catch (error) {
    await Promise.all(connections.map((connection) => connection.close()));
    if (ownsRunner) await runner?.close();
    throw error;
  }

  event('session.start', {
    mode: decision.mode,
    requestedMode: decision.requestedMode,
    directReason: config.directReason,
    catalogSize: catalog.size,
    sources: { ...catalog.sources(), client: clientInputs().length },
    mcpServers: connections.map((connection) => ({ name: connection.name, status: connection.status })),
  });

  // ---- calls ---------------------------------------------------------------------------------------
  const refOf = (id: string, entry: Entry): ToolRef => ({ id, name: entry.input.name, source: entry.input.source, owner: entry.input.owner });
  const isTrusted = (id: string, entry: Entry) => catalog.get(id)?.trusted ?? (entry.input.source === 'openclaw' || entry.input.source === 'plugin');
  const signatureOf = (id: string): string | undefined => {
    const described = catalog.describe(id);
    return described?.found ? described.tool.input : undefined;
  };

  const errorOutcome = (
    base: { kind: OutcomeKind; toolCallId: string; name: string; startedAt: number },
    code: ToolCallErrorCode,
    message: string,
    extra: { tool?: ToolRef; suggestions?: string[] } = {},
  ): ErrorOutcome => {
    const suggestions = extra.suggestions?.length ? extra.suggestions : undefined;
    const content = `Error (${code}): ${message}${suggestions ? `\nDid you mean: ${suggestions.join(', ')}` : ''}`;
    const outcome: ErrorOutcome = {
      status: 'error',
      kind: base.kind,
      toolCallId: base.toolCallId,
      name: base.name,
      code,
      message,
      content,
      durationMs: Date.now() - base.startedAt,
    };
    if (extra.tool) outcome.tool = extra.tool;
    if (suggestions) outcome.suggestions = suggestions;
    return outcome;
  };

  const unknownToolOutcome = (base: { kind: OutcomeKind; toolCallId: string; name: string; startedAt: number }, idOrName: string) => {
    const described = catalog.describe(idOrName);
    const suggestions = described && !described.found ? described.suggestions : [];
    return errorOutcome(base, 'unknown_tool', `No tool "${idOrName.slice(0, 200)}" is available to you. Find tools with ${searchHint()}.`, { suggestions });
  };
  const searchHint = () => (decision.mode === 'code' ? 'tools.search inside tool_search_code' : decision.mode === 'direct' ? 'the declared tools' : 'tool_search');

  async function callTool(
    id: string,
    rawArgs: Record<string, unknown>,
    meta: { via: CallRoute; toolCallId: string; name: string; signal?: AbortSignal; repair?: string },
  ): Promise<ToolCallOutcome> {
    const startedAt = Date.now();
    const base = { kind: 'call' as const, toolCallId: meta.toolCallId, name: meta.name, startedAt };
    const entry = entries.get(id);
    const finish = (outcome: ToolCallOutcome, decisionText: string): ToolCallOutcome => {
      counts.calls += 1;
      if (outcome.status === 'blocked') counts.blocked += 1;
      if (outcome.status === 'error') counts.errors += 1;
      const record: FinalCallRecord = {
        toolCallId: meta.toolCallId,
        toolId: id,
        source: entry?.input.source ?? parseToolId(id)?.source ?? 'openclaw',
        via: meta.via,
        status: outcome.status,
        durationMs: outcome.durationMs,
      };
      if (outcome.status === 'error') record.detail = outcome.code;
      if (outcome.status === 'blocked') record.detail = outcome.by;
      finalCalls.push(record);
      event('call', {
        toolCallId: meta.toolCallId,
        via: meta.via,
        toolId: id,
        source: record.source,
        decision: decisionText,
        status: outcome.status,
        ...(record.detail === undefined ? {} : { detail: record.detail }),
        ...(meta.repair === undefined ? {} : { repair: meta.repair }),
        durationMs: outcome.durationMs,
      });
      log.info({ toolId: id, via: meta.via, status: outcome.status, durationMs: outcome.durationMs }, 'tool call finished');
      return outcome;
    };

    if (!entry) {
      const gone = unavailable.get(id);
      if (gone !== undefined) return finish(errorOutcome(base, 'unavailable', gone), 'not-run');
      return finish(unknownToolOutcome(base, id), 'not-run');
    }
    const tool = refOf(id, entry);
    const decisionResult = await policy.authorizeCall({
      tool: policyTool(id, entry),
      args: rawArgs,
      context,
      ...(options.hooks === undefined ? {} : { hooks: options.hooks }),
      ...(options.approvals === undefined ? {} : { approvals: options.approvals }),
      ...(options.authorizeTimeoutMs === undefined ? {} : { timeoutMs: options.authorizeTimeoutMs }),
      ...(meta.signal === undefined ? {} : { signal: meta.signal }),
    });
    if (decisionResult.status === 'blocked') {
      const outcome: ToolCallOutcome = {
        status: 'blocked',
        kind: 'call',
        toolCallId: meta.toolCallId,
        name: meta.name,
        tool,
        by: decisionResult.by,
        reason: decisionResult.reason,
        content: `Blocked (${decisionResult.by}): ${decisionResult.reason}. The call to ${id} did not run; do not retry it.`,
        durationMs: Date.now() - startedAt,
      };
      if (decisionResult.hookId !== undefined) outcome.hookId = decisionResult.hookId;
      return finish(outcome, `blocked:${decisionResult.by}`);
    }
    const args = decisionResult.args;
    if (isTrusted(id, entry)) {
      const schema = catalog.get(id)?.inputSchema ?? entry.input.inputSchema;
      if (schema) {
        const signature = signatureOf(id);
        const validation = validator.validate({ toolId: id, schema, args, ...(signature === undefined ? {} : { signature }) });
        if (!validation.ok) {
          return finish(
            errorOutcome(base, 'invalid_args', validation.message, { tool, suggestions: Object.values(validation.suggestions).flat() }),
            'allowed',
          );
        }
      }
    }
    // A server may have gone away while hooks or approvals ran.
    if (!entries.has(id)) {
      return finish(errorOutcome(base, 'unavailable', unavailable.get(id) ?? `Tool ${id} is no longer available`, { tool }), 'allowed');
    }

    if (entry.kind === 'client') {
      return finish(
        {
          status: 'client',
          kind: 'call',
          toolCallId: meta.toolCallId,
          name: meta.name,
          tool,
          args,
          content: `Client tool ${entry.input.name} is executed by the caller.`,
          durationMs: Date.now() - startedAt,
        },
        'allowed',
      );
    }

    const timeout = AbortSignal.timeout(callTimeoutMs);
    const signal = anySignal([timeout, sessionAbort.signal, ...(meta.signal ? [meta.signal] : [])]);
    let result: unknown;
    if (entry.kind === 'mcp') {
      const called = await entry.server.callTool(entry.toolName, args, { signal, timeoutMs: callTimeoutMs });
      if (!called.ok) {
        const code: ToolCallErrorCode = called.code === 'unavailable' ? 'unavailable' : called.code === 'timeout' ? 'timeout' : 'tool_failed';
        return finish(errorOutcome(base, code, called.message, { tool }), 'allowed');
      }
      if (called.isError) {
        const rendered = renderToolResult(called.result, { untrusted: true, toolId: id });
        return finish(
          errorOutcome(base, 'tool_failed', `MCP server "${entry.server.name}" reported an error from ${entry.toolName}:\n${rendered.content}`, { tool }),
          'allowed',
        );
      }
      result = called.result;
    } else {
      try {
        result = await withAbort(
          Promise.resolve().then(() => entry.tool.execute(args, { toolId: id, toolCallId: meta.toolCallId, signal, logger: log.child({ toolId: id }) })),
          signal,
        );
      } catch (error) {
        if (timeout.aborted) return finish(errorOutcome(base, 'timeout', `Tool ${id} did not finish within ${callTimeoutMs} ms`, { tool }), 'allowed');
        const message = error instanceof Error ? error.message : String(error);
        return finish(errorOutcome(base, 'tool_failed', `Tool ${id} failed: ${message.slice(0, 2_000)}`, { tool }), 'allowed');
      }
    }
    const untrusted = !isTrusted(id, entry);
    const renderedResult = renderToolResult(result, { untrusted, toolId: id });
    return finish(
      {
        status: 'ok',
        kind: 'call',
        toolCallId: meta.toolCallId,
        name: meta.name,
        tool,
        result,
        untrusted,
        truncated: renderedResult.truncated,
        content: renderedResult.content,
        durationMs: Date.now() - startedAt,
      },
      'allowed',
    );
  }

  /** Resolves what the model gave as a tool id: an exact allowed id, or a unique catalog name. */
  const resolveTarget = (idOrName: string): { id: string } | { miss: DescribeResult & { found: false } } => {
    if (entries.has(idOrName) || unavailable.has(idOrName)) return { id: idOrName };
    const described = catalog.describe(idOrName);
    if (described.found) return { id: described.tool.id };
    return { miss: described };
  };

  const runSearch = (queries: { query: string; limit?: number }[], single: boolean, toolCallId: string, via: 'tool_search' | 'code') => {
    const results = single ? [catalog.search(queries[0]!.query, queries[0]!.limit === undefined ? {} : { limit: queries[0]!.limit })] : catalog.searchMany(queries);
    counts.searches += queries.length;
    queries.forEach((query, index) =>
      event('search', { toolCallId, via, query: query.query.slice(0, 500), hitIds: (results[index] ?? []).map((hit: SearchHit) => hit.id) }),
    );
    return results;
  };
  const runDescribe = (idOrName: string, toolCallId: string, via: 'tool_describe' | 'code'): DescribeResult => {
    counts.describes += 1;
    const described = catalog.describe(idOrName);
    event('describe', { toolCallId, via, target: idOrName.slice(0, 300), found: described.found, ...(described.found ? { toolId: described.tool.id } : {}) });
    return described;
  };

  const parseArgs = (args: unknown): Record<string, unknown> | undefined => {
    if (args === undefined || args === null || args === '') return {};
    let value = args;
    if (typeof value === 'string') {
      try {
        value = JSON.parse(value);
      } catch {
        return undefined;
      }
    }
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  };

  let closed = false;

  async function execute(request: ToolCallRequest): Promise<ToolCallOutcome> {
    if (closed) throw new GatewayAdapterError('session_closed', `Tool call ${request.toolCallId} arrived after the session was closed`);
    const startedAt = Date.now();
    const { name, toolCallId } = request;
    const controlKind: OutcomeKind =
      name === TOOL_SEARCH ? 'search' : name === TOOL_DESCRIBE ? 'describe' : name === TOOL_SEARCH_CODE ? 'code' : 'call';
    const base = { kind: controlKind, toolCallId, name, startedAt };
    const args = parseArgs(request.args);
    if (args === undefined) return countError(errorOutcome(base, 'invalid_request', `Arguments of ${name} must be a JSON object`));
    const searchMode = decision.mode === 'tools' || decision.mode === 'directory';

    if (name === TOOL_SEARCH_CODE && decision.mode === 'code') return runCode(args, toolCallId, startedAt);
    if (searchMode && name === TOOL_SEARCH) {
      const parsed = toolSearchArgsSchema.safeParse(args);
      if (!parsed.success) return countError(errorOutcome(base, 'invalid_request', `Invalid tool_search arguments: ${formatZodError(parsed.error, 'args').message}`));
      const single = parsed.data.query !== undefined;
      const queries = single
        ? [{ query: parsed.data.query!, ...(parsed.data.limit === undefined ? {} : { limit: parsed.data.limit }) }]
        : parsed.data.queries!.map((query) =>
            typeof query === 'string'
              ? { query, ...(parsed.data.limit === undefined ? {} : { limit: parsed.data.limit }) }
              : { query: query.query, ...((query.limit ?? parsed.data.limit) === undefined ? {} : { limit: query.limit ?? parsed.data.limit }) },
          );
      let results: SearchHit[][];
      try {
        results = runSearch(queries, single, toolCallId, 'tool_search');
      } catch (error) {
        return countError(errorOutcome(base, 'invalid_request', error instanceof Error ? error.message : String(error)));
      }
      const value = single ? results[0] : queries.map((query, index) => ({ query: query.query, hits: results[index] }));
      return { status: 'ok', kind: 'search', toolCallId, name, result: value, untrusted: false, truncated: false, content: JSON.stringify(value), durationMs: Date.now() - startedAt };
    }
    if (searchMode && name === TOOL_DESCRIBE) {
      const parsed = toolDescribeArgsSchema.safeParse(args);
      if (!parsed.success) return countError(errorOutcome(base, 'invalid_request', `Invalid tool_describe arguments: ${formatZodError(parsed.error, 'args').message}`));
      const described = runDescribe(parsed.data.id, toolCallId, 'tool_describe');
      if (!described.found) {
        return countError(errorOutcome(base, described.reason === 'ambiguous' ? 'invalid_request' : 'unknown_tool', described.message, { suggestions: described.suggestions }));
      }
      // A schema from an untrusted source carries its text too: it is marked like an untrusted result.
      const untrusted = catalog.get(described.tool.id)?.trusted !== true;
      const renderedDescription = renderToolResult(described.tool, { untrusted, toolId: described.tool.id });
      return {
        status: 'ok',
        kind: 'describe',
        toolCallId,
        name,
        tool: { id: described.tool.id, name: described.tool.name, source: described.tool.source, owner: described.tool.owner },
        result: described.tool,
        untrusted,
        truncated: renderedDescription.truncated,
        content: renderedDescription.content,
        durationMs: Date.now() - startedAt,
      };
    }
    if (searchMode && name === TOOL_CALL) {
      const target = typeof args['id'] === 'string' ? args['id'].trim() : '';
      if (target === '') return countError(errorOutcome(base, 'invalid_request', 'tool_call needs { id, args }: id is the tool id from tool_search'));
      const resolved = resolveTarget(target);
      if ('miss' in resolved) {
        const outcome = resolved.miss.reason === 'ambiguous'
          ? errorOutcome(base, 'invalid_request', resolved.miss.message, { suggestions: resolved.miss.suggestions })
          : unknownToolOutcome(base, target);
        return recordMiss(outcome, target, 'tool_call');
      }
      const strict = toolCallArgsSchema.safeParse(args);
      const properties = Object.keys((catalog.get(resolved.id)?.inputSchema['properties'] as Record<string, unknown> | undefined) ?? {});
      const repaired = strict.success ? ({ ok: true, args: strict.data.args } as const) : repairFlattenedArgs(args, properties);
      if (!repaired.ok) return countError(errorOutcome(base, 'invalid_request', repaired.message));
      return callTool(resolved.id, repaired.args, {
        via: 'tool_call',
        toolCallId,
        name,
        ...('repair' in repaired && repaired.repair !== undefined ? { repair: repaired.repair } : {}),
      });
    }
    if ((CONTROL_TOOL_NAMES as readonly string[]).includes(name)) {
      return countError(errorOutcome(base, 'wrong_mode', `${name} is not available in ${decision.mode} mode`));
    }

    // A directly declared tool (visible, client, or any catalog tool in direct mode).
    const { byName, surface } = currentSurface();
    // A name from an earlier surface keeps mapping to the tool it was declared for: that tool may have gone
    // away (the call then fails as unavailable) or be declared under another name now (a name shared by
    // two owners is qualified, and unqualified again once one of them goes). Either way it is gated below.
    const previouslyDeclared = declaredEver.get(name);
    const stillKnown = previouslyDeclared !== undefined && (entries.has(previouslyDeclared) || unavailable.has(previouslyDeclared));
    const declaredId = byName.get(name) ?? (stillKnown ? previouslyDeclared : undefined);
    if (declaredId !== undefined) {
      const entry = entries.get(declaredId);
      return callTool(declaredId, args, { via: entry?.kind === 'client' ? 'client' : 'direct', toolCallId, name });
    }
    // Directory mode: an exact hidden name the model read in the directory is hydrated from the allowed catalog.
    const hydrated = decision.mode === 'directory' ? surface.hydratable.get(name) : undefined;
    if (hydrated !== undefined && entries.has(hydrated)) {
      counts.hydrations += 1;
      event('hydration', { toolCallId, name, toolId: hydrated });
      return callTool(hydrated, args, { via: 'hydrated', toolCallId, name });
    }
    return recordMiss(unknownToolOutcome({ ...base, kind: 'call' }, name), name, 'direct');
  }

  function countError(outcome: ErrorOutcome): ErrorOutcome {
    counts.errors += 1;
    return outcome;
  }
  function recordMiss(outcome: ErrorOutcome, target: string, via: CallRoute): ErrorOutcome {
    event('call', { toolCallId: outcome.toolCallId, via, target: target.slice(0, 300), decision: 'not-run', status: 'error', detail: outcome.code, durationMs: outcome.durationMs });
    return countError(outcome);
  }

  async function runCode(args: Record<string, unknown>, toolCallId: string, startedAt: number): Promise<ToolCallOutcome> {
    const base = { kind: 'code' as const, toolCallId, name: TOOL_SEARCH_CODE, startedAt };
    const parsed = toolSearchCodeArgsSchema.safeParse(args);
    if (!parsed.success) return countError(errorOutcome(base, 'invalid_request', `Invalid tool_search_code arguments: ${formatZodError(parsed.error, 'args').message}`));
    if (!runner) return countError(errorOutcome(base, 'unavailable', 'No sandbox runner is available for tool_search_code'));
    counts.codeRuns += 1;
    const innerCalls: { id: string; status: string; detail?: string }[] = [];
    let sawUntrusted = false;
    let innerIndex = 0;
    const run = await runner.run({
      code: parsed.data.code,
      timeoutMs: config.codeTimeoutMs,
      signal: sessionAbort.signal,
      bridge: {
        search: async (query: unknown, searchOptions: unknown) => {
          if (typeof query !== 'string') throw new Error('tools.search(query, { limit }): query must be a string');
          const limit = typeof searchOptions === 'object' && searchOptions !== null ? (searchOptions as { limit?: unknown }).limit : undefined;
          return runSearch([{ query, ...(typeof limit === 'number' ? { limit } : {}) }], true, toolCallId, 'code')[0];
        },
        describe: async (id: unknown) => {
          if (typeof id !== 'string') throw new Error('tools.describe(id): id must be a string');
          const described = runDescribe(id, toolCallId, 'code');
          // A full schema carries its source's text: from an untrusted tool it marks the run's output.
          if (described.found && catalog.get(described.tool.id)?.trusted !== true) sawUntrusted = true;
          return described;
        },
        call: async (id: unknown, callArgs: unknown, bridgeContext?: { signal?: AbortSignal }) => {
          innerIndex += 1;
          const innerId = `${toolCallId}#${innerIndex}`;
          if (typeof id !== 'string') return { status: 'error', code: 'invalid_request', message: 'tools.call(id, args): id must be a string' };
          const argsObject = parseArgs(callArgs);
          if (argsObject === undefined) return { status: 'error', code: 'invalid_request', message: 'tools.call(id, args): args must be an object' };
          const resolved = resolveTarget(id);
          let outcome: ToolCallOutcome;
          if ('miss' in resolved) {
            outcome = recordMiss(unknownToolOutcome({ kind: 'call', toolCallId: innerId, name: TOOL_SEARCH_CODE, startedAt: Date.now() }, id), id, 'code');
          } else if (entries.get(resolved.id)?.kind === 'client') {
            outcome = recordMiss(
              errorOutcome({ kind: 'call', toolCallId: innerId, name: TOOL_SEARCH_CODE, startedAt: Date.now() }, 'wrong_mode', `${id} is a client tool: call it directly, not from code`),
              id,
              'code',
            );
          } else {
            outcome = await callTool(resolved.id, argsObject, {
              via: 'code',
              toolCallId: innerId,
              name: TOOL_SEARCH_CODE,
              ...(bridgeContext?.signal ? { signal: bridgeContext.signal } : {}),
            });
          }
          innerCalls.push({ id: outcome.tool?.id ?? id, status: outcome.status, ...(outcome.status === 'error' ? { detail: outcome.code } : {}) });
          if (outcome.status === 'ok') {
            if (outcome.untrusted) sawUntrusted = true;
            return { status: 'ok', result: outcome.result };
          }
          if (outcome.status === 'blocked') return { status: 'blocked', by: outcome.by, reason: outcome.reason };
          if (outcome.status === 'error') {
            return { status: 'error', code: outcome.code, message: outcome.message, ...(outcome.suggestions ? { suggestions: outcome.suggestions } : {}) };
          }
          return { status: 'error', code: 'wrong_mode', message: 'client tools cannot run from code' };
        },
      },
    });
    event('code.run', {
      toolCallId,
      ok: run.ok,
      ...(run.ok ? {} : { error: run.error.code }),
      calls: innerCalls.map((call) => ({ toolId: call.id, status: call.status })),
      stats: run.stats,
    });
    const durationMs = Date.now() - startedAt;
    const summary = { calls: innerCalls, logs: run.logs };
    if (!run.ok) {
      const code: ToolCallErrorCode = run.error.code === 'timeout' ? 'timeout' : run.error.code === 'unavailable' ? 'unavailable' : 'code_failed';
      const outcome = errorOutcome(base, code, `tool_search_code failed (${run.error.code}): ${run.error.message}`);
      outcome.content = `${outcome.content}\n${stringifyResult(summary)}`;
      return countError(outcome);
    }
    const value = { value: run.value, ...summary };
    const renderedRun = renderToolResult(value, { untrusted: sawUntrusted, toolId: TOOL_SEARCH_CODE });
    return { status: 'ok', kind: 'code', toolCallId, name: TOOL_SEARCH_CODE, result: value, untrusted: sawUntrusted, truncated: renderedRun.truncated, content: renderedRun.content, durationMs };
  }

  const telemetry = (): Telemetry => {
    const value: Telemetry = {
      sessionId,
      mode: decision.mode,
      requestedMode: decision.requestedMode,
      catalog: {
        size: catalog.size,
        sources: catalog.sources(),
        clientTools: clientInputs().length,
        visibleTools: visibleIds.filter((id) => entries.has(id)).length,
        unavailableServers: [...servers.values()].filter((server) => server.status !== 'connected').map((server) => server.name),
      },
      counts: { ...counts },
      calls: finalCalls.map((call) => ({ ...call })),
    };
    if (decision.fallbackReason !== undefined) value.fallbackReason = decision.fallbackReason;
    if (config.directReason !== undefined) value.directReason = config.directReason;
    if (surfaceTelemetry) value.surface = { ...surfaceTelemetry };
    return value;
  };

  return {
    sessionId,
    decision,
    surface(format) {
      const { surface } = currentSurface();
      const tools = toProviderTools(surface.tools, format);
      const measured = measureSurface(surface, format);
      const schemasUpFront = surface.tools.filter((tool) => tool.id !== undefined).length;
      surfaceTelemetry = { format, toolsDeclared: surface.tools.length, schemasUpFront, ...measured };
      event('surface', { mode: surface.mode, ...surfaceTelemetry });
      return { mode: surface.mode, tools, instructions: surface.instructions };
    },
    execute,
    telemetry,
    async close() {
      if (closed) return;
      closed = true;
      sessionAbort.abort();
      await Promise.all([...servers.values()].map((server) => server.close()));
      if (ownsRunner) await runner?.close();
      const summary = telemetry();
      event('session.summary', {
        mode: summary.mode,
        requestedMode: summary.requestedMode,
        ...(summary.fallbackReason === undefined ? {} : { fallbackReason: summary.fallbackReason }),
        catalogSize: summary.catalog.size,
        schemasUpFront: summary.surface?.schemasUpFront ?? null,
        counts: summary.counts,
        finalCalls: summary.calls.map((call) => ({ toolId: call.toolId, source: call.source, via: call.via, status: call.status })),
      });
      sessionLog?.flush();
    },
  };
}

/** Rejects when `signal` aborts, so a tool that ignores its signal cannot hang the call. */
function withAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Aborts when any of `signals` does (`AbortSignal.any` is missing before Node 20.3). */
function anySignal(signals: AbortSignal[]): AbortSignal {
  const controller = new AbortController();
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true, signal: controller.signal });
  }
  return controller.signal;
}

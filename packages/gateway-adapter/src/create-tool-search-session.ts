// One run's session without a long-lived host: a host of one session, created with it and closed with it.
import type { ApprovalProvider, BeforeToolCallHook, Policy, PolicyConfig, PolicyContext, PolicyTimeouts } from '@tool-search/policy';
import type { ProbeResult, Runner } from '@tool-search/sandbox-runner';
import type { Logger } from 'pino';
import type { SessionLog, SessionLogTarget } from './create-session-log.js';
import { createToolSearchHost } from './create-tool-search-host.js';
import type { ToolSearchHostSources } from './host/index.js';
import type { ClientTool } from './executable-tool.js';
import type { ToolSearchEnv } from './resolve-tool-search-config.js';
import { pickDefined as pick } from './pick-defined.js';
import type { ToolSearchSession } from './tool-search-session.js';

/** The tools of one run, by source: a host's sources plus the run's client tools. */
export interface ToolSearchSources extends ToolSearchHostSources {
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
  probe?: () => Promise<ProbeResult>;
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

/**
 * Creates the session for one run: a host of one session (plugins loaded, MCP servers started and waited
 * for), closed when the session closes. For many runs over the same sources, keep a `createToolSearchHost`
 * and open a session per run instead.
 */
export async function createToolSearchSession(options: CreateToolSearchSessionOptions): Promise<ToolSearchSession> {
  const { client, ...sources } = options.sources ?? {};
  const host = await createToolSearchHost({
    sources,
    // One run waits for every server's first start (each bounded by its own request timeout), as before hosts.
    startupTimeoutMs: Number.POSITIVE_INFINITY,
    sandboxPoolSize: 1,
    ...pick(options, ['logger', 'cwd', 'env', 'mcpRequestTimeoutMs', 'probe', 'runner']),
  });
  try {
    const session = await host.openSession({
      config: options.config,
      client,
      ...pick(options, ['policy', 'context', 'visible', 'sessionLog', 'hooks', 'approvals', 'authorizeTimeoutMs', 'callTimeoutMs', 'sessionId']),
    });
    // The session's methods are closures over its parts, so they stay bound when spread.
    return {
      ...session,
      async close() {
        await session.close();
        await host.close();
      },
    };
  } catch (error) {
    // A session that fails to start leaves nothing running behind it.
    await host.close();
    throw error;
  }
}

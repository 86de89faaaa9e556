// What a caller gives `host.openSession`: the config, the policy and run context, client tools, the log, hooks.
import type { ApprovalProvider, BeforeToolCallHook, Policy, PolicyConfig, PolicyContext, PolicyTimeouts } from '@tool-search/policy';
import type { Runner } from '@tool-search/sandbox-runner';
import type { Logger } from 'pino';
import type { SessionLog, SessionLogTarget } from '../create-session-log.js';
import type { ClientTool } from '../executable-tool.js';

/** Options of `host.openSession`. */
export interface OpenSessionOptions {
  /** The `tools.toolSearch` setting (raw, or the output of `resolveToolSearchConfig`). */
  config: unknown;
  /**
   * A policy config, or a compiled policy. A config is validated and its catalog view shared with every session of
   * a config with the same content (see the host's `policyCacheSize`); a compiled policy shares views only with
   * sessions of the same object. Default: empty.
   */
  policy?: Policy | PolicyConfig | undefined;
  /** Who is asking, for this run. */
  context?: PolicyContext | undefined;
  /** Tools executed by the caller: their calls come back as `{ status: 'client' }` outcomes. */
  client?: ClientTool[] | undefined;
  /** Ids (or unique names) of allowed tools to keep directly visible in every mode (pinned). */
  visible?: string[] | undefined;
  /** Where the session log goes: a file path, a stream, or a `SessionLog`. */
  sessionLog?: SessionLogTarget | SessionLog | undefined;
  /** `before_tool_call` hooks for every call (after the policy's own). */
  hooks?: readonly BeforeToolCallHook[] | undefined;
  approvals?: ApprovalProvider | undefined;
  /** Limits for hooks and approvals (passed to `authorizeCall`). */
  authorizeTimeoutMs?: number | PolicyTimeouts | undefined;
  /** Timeout of one tool execution (local or MCP). Default 30,000 ms. */
  callTimeoutMs?: number | undefined;
  sessionId?: string | undefined;
  /** This session's logger (default: the host's). */
  logger?: Logger | undefined;
  /** A sandbox runner for this session only (default: the host's shared one). */
  runner?: Runner | undefined;
  /**
   * The run's request text. In directory mode the few catalog tools the ranking is confident about for it (at most
   * 3, only past a measured margin) are declared directly, so the model can often call without a search turn.
   */
  request?: string | undefined;
  /**
   * Called after each change of the host's catalog (a server joined, went away or changed its tools), once the
   * session has taken it in: its surface may differ now. A front re-renders and compares.
   */
  onCatalogChange?: (() => void) | undefined;
  /**
   * Default true: the host's first session waits (up to its startup timeout) for servers still starting. `false`:
   * a `code` or `tools` session with no pinned tools and no `request` opens at once, since its surface is the
   * control tools whatever the servers bring; its `execute` waits for the start-up before running anything and
   * `whenStarted()` says when it is over. Every other session waits as with `true`.
   */
  waitForStartup?: boolean | undefined;
}

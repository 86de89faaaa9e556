// The public types of @tool-search/policy. The gateway adapter codes against these.
import type { ToolSource } from '@tool-search/catalog';
import type { Logger } from 'pino';

/** Where a tool comes from; the first segment of its id. The catalog's `ToolSource`, which owns the list. */
export type PolicySource = ToolSource;

/**
 * The MCP `ToolAnnotations` fields policy reads (other keys are ignored). Every hint is optional; an absent
 * one is read as the MCP spec's default (see the README, "Hint patterns").
 */
export interface PolicyToolAnnotations {
  /** A display title; policy does not read it. */
  title?: string | undefined;
  /** The tool does not modify its environment. Default false. */
  readOnlyHint?: boolean | undefined;
  /** The tool may perform destructive updates. Default true (false for a read-only tool). */
  destructiveHint?: boolean | undefined;
  /** Repeating a call with the same arguments has no further effect. Default false (true for a read-only tool). */
  idempotentHint?: boolean | undefined;
  /** The tool may interact with an open world of external entities. Default true. */
  openWorldHint?: boolean | undefined;
}

/**
 * What the policy needs to know about a tool. A catalog `ToolDescriptor` fits as is.
 * `id` must be `<source>:<owner>:<name>`; a tool whose id disagrees with its fields is rejected.
 */
export interface PolicyTool {
  id: string;
  name: string;
  source: PolicySource;
  owner: string;
  /** Eligible only when `context.isOwner` is true. */
  ownerOnly?: boolean;
  /** The tool's MCP annotations; `hint:<name>` patterns match them. */
  annotations?: PolicyToolAnnotations;
  /**
   * Whether the host vouches for the tool's annotations. Only `true` counts: a hint of any other tool may
   * make a `deny` or `requireApproval` pattern match, but never satisfies an `allow` list.
   */
  trusted?: boolean;
}

/** Who is asking, for one run. Selects which layers apply and whether owner-only tools are eligible. */
export interface PolicyContext {
  agentId?: string | undefined;
  profile?: string | undefined;
  sandboxId?: string | undefined;
  channel?: string | undefined;
  runtime?: string | undefined;
  sessionId?: string | undefined;
  senderId?: string | undefined;
  isOwner?: boolean | undefined;
}

/**
 * One layer of the policy. Patterns are tool names (`read`, `browser_*`), ids with per-segment globs
 * (`mcp:github:*`, `plugin:*:browser_*`), groups (`group:fs`) or annotation hints (`hint:destructive`).
 */
export interface PolicyLayer {
  /** When present, the layer admits only tools matching one of these (an empty list admits nothing). */
  allow?: string[] | undefined;
  /** Tools matching any of these are never admitted by this layer; deny beats allow. */
  deny?: string[] | undefined;
  /** Eligible tools matching any of these need an approval before every call. */
  requireApproval?: string[] | undefined;
}

/** The whole policy config (JSON-friendly; validated strictly by `parsePolicyConfig`). */
export interface PolicyConfig extends PolicyLayer {
  /** User-defined groups: `{ "group:github-read": ["mcp:github:get_*", "mcp:github:list_*"] }`. */
  groups?: Record<string, string[]> | undefined;
  /** Layers keyed by `context.agentId`; the key `*` applies whenever `agentId` is set. */
  agents?: Record<string, PolicyLayer> | undefined;
  /** Layers keyed by `context.profile` (`*`: whenever set). */
  profiles?: Record<string, PolicyLayer> | undefined;
  /** Layers keyed by `context.sandboxId` (`*`: whenever set). */
  sandboxes?: Record<string, PolicyLayer> | undefined;
  /** Layers keyed by `context.channel` (`*`: whenever set). */
  channels?: Record<string, PolicyLayer> | undefined;
  /** Layers keyed by `context.runtime` (`*`: whenever set). */
  runtimes?: Record<string, PolicyLayer> | undefined;
  /** Layers keyed by `context.sessionId` (`*`: whenever set). */
  sessions?: Record<string, PolicyLayer> | undefined;
}

/** Tool groups by reference (`group:<name>`) to their member patterns. */
export type PolicyGroups = Record<string, readonly string[]>;

/**
 * The eligibility of one tool in one context. `layer` is the config path of the deciding layer
 * (`global`, `agents.main`, …, or `owner-only` / `tool`), `rule` what decided it
 * (`deny:<pattern>`, `allow`, `ownerOnly`, `malformed`).
 */
export type PolicyVerdict =
  | { allowed: true }
  | { allowed: false; by: 'policy' | 'owner-only'; layer: string; rule: string; reason: string };

/** Where an approval is required: the layer and the `requireApproval` pattern that matched. */
export interface ApprovalRequirement {
  layer: string;
  rule: string;
  /**
   * Set when a `hint:` rule matched a hint the tool does not state, in the words a deny reason uses, e.g.
   * "no annotations: MCP's default destructiveHint is true": say it wherever the approval is explained to a person.
   */
  note?: string;
}

/** The outcome of `authorizeCall`. `args` are the final arguments (after hooks) to call the tool with. */
export type CallDecision =
  | { status: 'allowed'; args: Record<string, unknown> }
  | {
      status: 'blocked';
      by: 'policy' | 'owner-only' | 'approval' | 'hook';
      reason: string;
      /** The hook that blocked (or failed), when `by` is `hook`. */
      hookId?: string;
      /** The deciding layer, when `by` is `policy`, `owner-only` or `approval`. */
      layer?: string;
      /** The deciding rule, when `by` is `policy`, `owner-only` or `approval`. */
      rule?: string;
    };

/** What a `before_tool_call` hook receives. `args` is a private deep copy: mutating it changes nothing. */
export interface BeforeToolCallEvent {
  tool: Readonly<PolicyTool>;
  args: Record<string, unknown>;
  context: Readonly<PolicyContext>;
}

/**
 * What a hook may return: nothing (`undefined`/`null`: no change), `{ block: true, reason }`, or
 * `{ args }` (a plain JSON object that replaces the arguments for the next hook and the call).
 * Anything else is malformed and blocks the call.
 */
export type BeforeToolCallResult = { block: true; reason: string } | { args: Record<string, unknown> } | null | undefined | void;

/** A `before_tool_call` hook. Hooks run in order; `signal` aborts when the hook times out or the call is cancelled. */
export interface BeforeToolCallHook {
  id: string;
  run(event: BeforeToolCallEvent, options: { signal: AbortSignal }): BeforeToolCallResult | Promise<BeforeToolCallResult>;
}

/** What an approval provider is asked: the tool, the final args (a copy), the context and the rule that required it. */
export interface ApprovalRequest {
  tool: Readonly<PolicyTool>;
  args: Record<string, unknown>;
  context: Readonly<PolicyContext>;
  requirement: ApprovalRequirement;
}

/** An approval provider's answer. Anything else (or no answer in time) is a deny. */
export type ApprovalAnswer = { decision: 'allow'; reason?: string } | { decision: 'deny'; reason?: string };

/** Answers approval requests (a human in a UI, a rules engine). `signal` aborts on timeout or cancellation. */
export interface ApprovalProvider {
  id?: string;
  requestApproval(request: ApprovalRequest, options: { signal: AbortSignal }): ApprovalAnswer | Promise<ApprovalAnswer>;
}

/** Per-step time limits in milliseconds: each hook gets `hook`, the approval gets `approval`. */
export interface PolicyTimeouts {
  /** Default 5,000 ms per hook. */
  hook?: number;
  /** Default 30,000 ms for the approval. */
  approval?: number;
}

/** One call to authorize through `policy.authorizeCall`. */
export interface AuthorizeCallRequest {
  tool: PolicyTool;
  /** The model's arguments: a plain JSON object (`undefined` is taken as `{}`). */
  args: unknown;
  context: PolicyContext;
  /** Replaces the policy's default approval provider for this call. */
  approvals?: ApprovalProvider | undefined;
  /** Run after the policy's default hooks, in order. */
  hooks?: readonly BeforeToolCallHook[] | undefined;
  /** A number sets both limits; an object sets them separately. */
  timeoutMs?: number | PolicyTimeouts | undefined;
  /** Cancels a pending hook or approval (the call is then blocked). */
  signal?: AbortSignal | undefined;
}

/** Options for the standalone `authorizeCall`: a request plus the policy to check it against. */
export interface AuthorizeCallOptions extends AuthorizeCallRequest {
  policy: Policy;
  logger?: Logger;
}

/** Options for `createPolicy`. */
export interface PolicyOptions {
  /** Host-defined groups (e.g. a runtime's own tool families), merged with the built-in and config groups. */
  groups?: Record<string, string[]>;
  logger?: Logger;
  /** Default hooks for every `policy.authorizeCall`. */
  hooks?: readonly BeforeToolCallHook[];
  /** Default approval provider for `policy.authorizeCall`. */
  approvals?: ApprovalProvider;
  /** Default time limits for `policy.authorizeCall`. */
  timeoutMs?: number | PolicyTimeouts;
}

/** A compiled policy. Pure and synchronous except `authorizeCall`. */
export interface Policy {
  /** The validated config this policy was built from. */
  readonly config: PolicyConfig;
  /** Every group the policy knows (built-in, options and config), by reference. */
  readonly groups: Readonly<PolicyGroups>;
  /** Is this tool eligible in this context? */
  check(tool: PolicyTool, context: PolicyContext): PolicyVerdict;
  /** The eligible tools, in input order: the effective catalog for one run. */
  filter<T extends PolicyTool>(tools: readonly T[], context: PolicyContext): T[];
  /** The approval rule that applies to this tool in this context, or `undefined` when none does. */
  approvalRequirement(tool: PolicyTool, context: PolicyContext): ApprovalRequirement | undefined;
  /**
   * An opaque key for what this context selects: two contexts with equal keys get identical `check`,
   * `filter` and `approvalRequirement` results for every tool, so a host may cache an allowed set by it.
   * Built from the applicable layers and `isOwner` only; keys of different policy objects never match.
   */
  scopeKey(context: PolicyContext): string;
  /** Policy and owner gate, then hooks, then approval; fails closed. Uses the policy's default hooks and approvals. */
  authorizeCall(request: AuthorizeCallRequest): Promise<CallDecision>;
}

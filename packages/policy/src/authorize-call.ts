// The gate every real call passes, whichever surface made it (a direct tool call, the structured
// `tool_call`, or `tools.call` from sandboxed code): policy and owner gate, then the ordered
// before_tool_call hooks, then an approval on the final args. Fail closed: every error, timeout,
// cancellation or malformed answer is a block, never an allow.
import type { Logger } from 'pino';
import { PolicyError } from './errors';
import { runBounded, type BoundedOutcome } from './internal/run-bounded';
import { createSilentLogger } from './internal/silent-logger';
import { toPlainJsonObject } from './internal/to-plain-json-object';
import { approvalAnswerSchema, policyTimeoutsSchema } from './schemas';
import type {
  ApprovalProvider,
  AuthorizeCallOptions,
  BeforeToolCallHook,
  CallDecision,
  PolicyContext,
  PolicyTimeouts,
  PolicyTool,
  PolicyToolAnnotations,
} from './types';

/** Default time limit per hook. */
export const DEFAULT_HOOK_TIMEOUT_MS = 5_000;
/** Default time limit for an approval. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 30_000;

const MAX_REASON_LENGTH = 500;
const MAX_LOGGED_ARG_KEYS = 20;

type Blocked = Extract<CallDecision, { status: 'blocked' }>;

function invalidArgument(path: string, message: string): PolicyError {
  return new PolicyError('invalid_argument', `invalid ${path}: ${message}`, { path });
}

/** Throws `PolicyError('invalid_argument')` unless `hooks` is a list of `{ id, run }`. */
export function assertHooks(hooks: unknown, path: string): asserts hooks is readonly BeforeToolCallHook[] | undefined {
  if (hooks === undefined) return;
  if (!Array.isArray(hooks)) throw invalidArgument(path, 'expected an array of { id, run } hooks');
  hooks.forEach((hook: unknown, index) => {
    const candidate = hook as Partial<BeforeToolCallHook> | null;
    if (typeof candidate !== 'object' || candidate === null || typeof candidate.id !== 'string' || candidate.id === '' || typeof candidate.run !== 'function') {
      throw invalidArgument(`${path}[${index}]`, 'expected a hook { id: non-empty string, run: function }');
    }
  });
}

/** Throws `PolicyError('invalid_argument')` unless `provider` is absent or has `requestApproval`. */
export function assertApprovalProvider(provider: unknown, path: string): asserts provider is ApprovalProvider | undefined {
  if (provider === undefined) return;
  if (typeof provider !== 'object' || provider === null || typeof (provider as ApprovalProvider).requestApproval !== 'function') {
    throw invalidArgument(path, 'expected an approval provider { requestApproval: function }');
  }
}

/** Resolves `timeoutMs` to both limits (defaults 5 s per hook, 30 s per approval). */
export function resolveTimeouts(timeoutMs: unknown, path: string): Required<PolicyTimeouts> {
  if (timeoutMs === undefined) return { hook: DEFAULT_HOOK_TIMEOUT_MS, approval: DEFAULT_APPROVAL_TIMEOUT_MS };
  const parsed = policyTimeoutsSchema.safeParse(timeoutMs);
  if (!parsed.success) throw invalidArgument(path, 'expected a whole number of milliseconds (1 to 2147483647) or { hook?, approval? }');
  if (typeof parsed.data === 'number') return { hook: parsed.data, approval: parsed.data };
  return { hook: parsed.data.hook ?? DEFAULT_HOOK_TIMEOUT_MS, approval: parsed.data.approval ?? DEFAULT_APPROVAL_TIMEOUT_MS };
}

function clip(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > MAX_REASON_LENGTH ? `${trimmed.slice(0, MAX_REASON_LENGTH - 1)}…` : trimmed;
}

function describeFailure(outcome: Exclude<BoundedOutcome, { kind: 'value' }>): string {
  switch (outcome.kind) {
    case 'threw':
      return 'threw an error';
    case 'timeout':
      return `did not answer within ${outcome.timeoutMs} ms`;
    case 'aborted':
      return 'was cancelled before it answered';
  }
}

function isBlockResult(value: object): value is { block: true; reason: string } {
  const keys = Object.keys(value);
  return (
    (value as { block?: unknown }).block === true &&
    typeof (value as { reason?: unknown }).reason === 'string' &&
    (value as { reason: string }).reason.trim() !== '' &&
    keys.length === 2 &&
    keys.includes('block') &&
    keys.includes('reason')
  );
}

type HookResultReading =
  | { kind: 'pass' }
  | { kind: 'block'; reason: string }
  | { kind: 'args'; args: Record<string, unknown> }
  | { kind: 'malformed'; problem: string };

const MALFORMED_RESULT = 'a malformed result (expected nothing, { block: true, reason } or { args })';

// Reads what a hook returned. Any surprise, including a getter or proxy trap that throws while we look,
// is `malformed` (and so a block).
function interpretHookResult(result: unknown): HookResultReading {
  if (result === undefined || result === null) return { kind: 'pass' };
  if (typeof result !== 'object') return { kind: 'malformed', problem: MALFORMED_RESULT };
  const reading = safely((): HookResultReading => {
    if (isBlockResult(result)) return { kind: 'block', reason: clip(result.reason) };
    const keys = Object.keys(result);
    if (keys.length !== 1 || keys[0] !== 'args') return { kind: 'malformed', problem: MALFORMED_RESULT };
    const rewritten = toPlainJsonObject((result as { args: unknown }).args);
    return rewritten.ok ? { kind: 'args', args: rewritten.value } : { kind: 'malformed', problem: `malformed args (${rewritten.problem})` };
  });
  return reading ?? { kind: 'malformed', problem: `${MALFORMED_RESULT} that could not be read` };
}

function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

// What hooks and approval providers see of the tool: the fields policy reads, copied and frozen, so
// none of them can change the tool for the next one or for the call.
function snapshotTool(tool: PolicyTool): Readonly<PolicyTool> {
  const copy: PolicyTool = { id: tool.id, name: tool.name, source: tool.source, owner: tool.owner };
  if (tool.ownerOnly !== undefined) copy.ownerOnly = tool.ownerOnly;
  if (tool.trusted !== undefined) copy.trusted = tool.trusted;
  if (tool.annotations !== undefined) copy.annotations = snapshotAnnotations(tool.annotations);
  return Object.freeze(copy);
}

const ANNOTATION_FIELDS = ['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

function snapshotAnnotations(annotations: PolicyToolAnnotations): Readonly<PolicyToolAnnotations> {
  const copy: Record<string, unknown> = {};
  for (const field of ANNOTATION_FIELDS) if (annotations[field] !== undefined) copy[field] = annotations[field];
  return Object.freeze(copy as PolicyToolAnnotations);
}

/** `authorizeCall` with an explicit logger; `policy.authorizeCall` uses this with the policy's logger. */
export async function authorizeCallWithLogger(log: Logger, options: AuthorizeCallOptions): Promise<CallDecision> {
  const started = performance.now();
  if (typeof options !== 'object' || options === null || typeof options.policy?.check !== 'function') {
    throw invalidArgument('policy', 'authorizeCall needs the policy to check against');
  }
  const { policy, tool, context, signal } = options;
  assertHooks(options.hooks, 'hooks');
  assertApprovalProvider(options.approvals, 'approvals');
  const timeouts = resolveTimeouts(options.timeoutMs, 'timeoutMs');
  const initialArgs = toPlainJsonObject(options.args === undefined ? {} : options.args);
  if (!initialArgs.ok) throw invalidArgument('args', initialArgs.problem);

  const toolId = typeof tool?.id === 'string' ? tool.id : undefined;
  const finish = (decision: CallDecision, argKeys: string[]): CallDecision => {
    const fields = { toolId, argKeys: argKeys.slice(0, MAX_LOGGED_ARG_KEYS), argCount: argKeys.length, durationMs: Math.round((performance.now() - started) * 1000) / 1000 };
    if (decision.status === 'allowed') log.info({ ...fields, status: 'allowed' }, 'tool call authorized');
    else {
      const { by, layer, rule, hookId } = decision;
      log.info({ ...fields, status: 'blocked', by, layer, rule, hookId }, 'tool call blocked');
    }
    return decision;
  };
  const block = (decision: Omit<Blocked, 'status'>, argKeys: string[]) => finish({ status: 'blocked', ...decision }, argKeys);

  // 1. Policy and owner gate (this also validates the context, throwing on a broken one).
  const verdict = policy.check(tool, context);
  let args = initialArgs.value;
  if (!verdict.allowed) {
    const { by, reason, layer, rule } = verdict;
    return block({ by, reason, layer, rule }, Object.keys(args));
  }
  const toolSnapshot = snapshotTool(tool);
  const contextSnapshot: Readonly<PolicyContext> = Object.freeze({ ...context });

  // 2. Hooks, in order; each sees the args the previous one produced.
  for (const hook of options.hooks ?? []) {
    const event = { tool: toolSnapshot, args: copyArgs(args), context: contextSnapshot };
    const outcome = await runBounded((hookSignal) => hook.run(event, { signal: hookSignal }), timeouts.hook, signal);
    const hookId = hook.id;
    if (outcome.kind !== 'value') {
      log.warn({ toolId, hookId, outcome: outcome.kind, err: outcome.kind === 'threw' ? outcome.error : undefined }, 'before_tool_call hook failed');
      return block({ by: 'hook', hookId, reason: `before_tool_call hook '${hookId}' ${describeFailure(outcome)}; the call is blocked` }, Object.keys(args));
    }
    const interpreted = interpretHookResult(outcome.value);
    if (interpreted.kind === 'pass') continue;
    if (interpreted.kind === 'args') {
      args = interpreted.args;
      continue;
    }
    if (interpreted.kind === 'block') return block({ by: 'hook', hookId, reason: interpreted.reason }, Object.keys(args));
    log.warn({ toolId, hookId, problem: interpreted.problem }, 'before_tool_call hook returned a malformed result');
    return block({ by: 'hook', hookId, reason: `before_tool_call hook '${hookId}' returned ${interpreted.problem}; the call is blocked` }, Object.keys(args));
  }

  // 3. Approval on the final args, when a requireApproval rule applies.
  const requirement = policy.approvalRequirement(tool, context);
  if (requirement !== undefined) {
    const { layer } = requirement;
    const rule = `requireApproval:${requirement.rule}`;
    const provider = options.approvals;
    if (provider === undefined) {
      return block({ by: 'approval', layer, rule, reason: `tool '${tool.id}' requires approval (${rule} in ${layer}${requirement.note === undefined ? '' : `; ${requirement.note}`}) and no approval provider is configured` }, Object.keys(args));
    }
    const request = { tool: toolSnapshot, args: copyArgs(args), context: contextSnapshot, requirement: { ...requirement } };
    const outcome = await runBounded((approvalSignal) => provider.requestApproval(request, { signal: approvalSignal }), timeouts.approval, signal);
    if (outcome.kind !== 'value') {
      log.warn({ toolId, layer, rule, outcome: outcome.kind, err: outcome.kind === 'threw' ? outcome.error : undefined }, 'approval provider failed');
      return block({ by: 'approval', layer, rule, reason: `the approval provider ${describeFailure(outcome)}; the call is blocked` }, Object.keys(args));
    }
    const answer = safely(() => approvalAnswerSchema.safeParse(outcome.value));
    if (answer === undefined || !answer.success) {
      log.warn({ toolId, layer, rule }, 'approval provider returned a malformed answer');
      return block({ by: 'approval', layer, rule, reason: "the approval provider returned a malformed answer (expected { decision: 'allow' | 'deny' }); the call is blocked" }, Object.keys(args));
    }
    if (answer.data.decision !== 'allow') {
      const why = answer.data.reason?.trim() ? clip(answer.data.reason) : 'the approval was denied';
      return block({ by: 'approval', layer, rule, reason: why }, Object.keys(args));
    }
  }
  return finish({ status: 'allowed', args }, Object.keys(args));
}

// Args are already a validated plain JSON object here, so a copy cannot fail.
function copyArgs(args: Record<string, unknown>): Record<string, unknown> {
  const copy = toPlainJsonObject(args);
  return copy.ok ? copy.value : {};
}

/**
 * Authorizes one real tool call against `policy`: policy and owner gate, then `hooks` in order, then an
 * approval from `approvals` when a `requireApproval` rule applies. Never rejects for a hook's or
 * provider's failure (that is a block); throws `PolicyError('invalid_argument')` for malformed input.
 */
export function authorizeCall(options: AuthorizeCallOptions): Promise<CallDecision> {
  const log = (options?.logger ?? createSilentLogger()).child({ pkg: 'policy' });
  return authorizeCallWithLogger(log, options);
}

import type { Logger } from 'pino';
import { assertApprovalProvider, assertHooks, authorizeCallWithLogger, resolveTimeouts } from './authorize-call';
import { PolicyError } from './errors';
import { checkToolShape } from './internal/check-tool-shape';
import { compilePatternSet, toMatchTarget, type MatchTarget, type PatternSet } from './internal/compile-pattern-set';
import { formatPath } from './internal/format-path';
import { createSilentLogger } from './internal/silent-logger';
import { KEYED_LAYERS, validatePolicyConfig, type ValidatedPolicyConfig } from './internal/validate-policy-config';
import { policyContextSchema } from './schemas';
import type {
  ApprovalRequirement,
  Policy,
  PolicyConfig,
  PolicyContext,
  PolicyLayer,
  PolicyOptions,
  PolicyTool,
  PolicyVerdict,
} from './types';

interface CompiledLayer {
  /** Config path of the layer: `global`, `agents.main`, `sandboxes["*"]`. */
  path: string;
  allow: PatternSet | undefined;
  deny: PatternSet | undefined;
  requireApproval: PatternSet | undefined;
}

type KeyedLayers = { mapName: string; field: keyof PolicyContext; layers: Map<string, CompiledLayer> };

const ALLOWED: PolicyVerdict = Object.freeze({ allowed: true });
const ANY_KEY = '*';

function compileLayer(validated: ValidatedPolicyConfig, layer: PolicyLayer, path: string): CompiledLayer {
  const compile = (patterns: string[] | undefined) => (patterns === undefined ? undefined : compilePatternSet(validated.toEntries(patterns)));
  return { path, allow: compile(layer.allow), deny: compile(layer.deny), requireApproval: compile(layer.requireApproval) };
}

function parseContext(context: unknown): PolicyContext {
  const parsed = policyContextSchema.safeParse(context);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = formatPath(['context', ...issue.path]);
  throw new PolicyError('invalid_argument', `invalid policy context at ${path}: ${issue.message}`, { path });
}

function now(): number {
  return performance.now();
}

function elapsed(started: number): number {
  return Math.round((now() - started) * 1000) / 1000;
}

/**
 * Compiles a policy config (validated strictly; throws `PolicyError('invalid_config')` naming the path).
 * Layers: the global one, then per agent, profile, sandbox, channel, runtime and session.
 */
export function createPolicy(config: PolicyConfig, options: PolicyOptions = {}): Policy {
  const validated = validatePolicyConfig(config, options.groups);
  // Fail at construction, not on the first call, when the defaults are broken.
  assertHooks(options.hooks, 'options.hooks');
  assertApprovalProvider(options.approvals, 'options.approvals');
  resolveTimeouts(options.timeoutMs, 'options.timeoutMs');
  const log: Logger = (options.logger ?? createSilentLogger()).child({ pkg: 'policy' });

  const globalLayer = compileLayer(validated, validated.config, 'global');
  const keyed: KeyedLayers[] = KEYED_LAYERS.map(([mapName, field]) => {
    const layers = new Map<string, CompiledLayer>();
    for (const [key, layer] of Object.entries(validated.config[mapName] ?? {})) {
      layers.set(key, compileLayer(validated, layer, formatPath([mapName, key])));
    }
    return { mapName, field, layers };
  });

  // The layers that apply to a context, in evaluation order. A keyed layer applies when the context
  // field equals its key; the `*` layer applies whenever the field is set.
  const applicableLayers = (context: PolicyContext): CompiledLayer[] => {
    const out = [globalLayer];
    for (const { field, layers } of keyed) {
      const value = context[field];
      if (typeof value !== 'string') continue;
      const any = layers.get(ANY_KEY);
      if (any) out.push(any);
      const exact = value === ANY_KEY ? undefined : layers.get(value);
      if (exact) out.push(exact);
    }
    return out;
  };

  const evaluate = (tool: PolicyTool, target: MatchTarget | undefined, layers: CompiledLayer[], isOwner: boolean): PolicyVerdict => {
    if (target === undefined) {
      const problem = checkToolShape(tool) ?? 'the tool is malformed';
      const id = typeof tool?.id === 'string' ? tool.id : '(no id)';
      return { allowed: false, by: 'policy', layer: 'tool', rule: 'malformed', reason: `tool '${id}' is malformed: ${problem}` };
    }
    if (tool.ownerOnly === true && !isOwner) {
      return {
        allowed: false,
        by: 'owner-only',
        layer: 'owner-only',
        rule: 'ownerOnly',
        reason: `tool '${tool.id}' is owner-only and the caller is not the owner`,
      };
    }
    for (const layer of layers) {
      const denied = layer.deny?.firstMatch(target);
      if (denied !== undefined) {
        return {
          allowed: false,
          by: 'policy',
          layer: layer.path,
          rule: `deny:${denied}`,
          reason: `tool '${tool.id}' is denied by '${denied}' in ${layer.path}`,
        };
      }
      if (layer.allow !== undefined && !layer.allow.matches(target)) {
        return {
          allowed: false,
          by: 'policy',
          layer: layer.path,
          rule: 'allow',
          reason: `tool '${tool.id}' is not in the allow list of ${layer.path}`,
        };
      }
    }
    return ALLOWED;
  };

  const targetOf = (tool: PolicyTool): MatchTarget | undefined =>
    checkToolShape(tool) === undefined ? toMatchTarget(tool.source, tool.owner, tool.name) : undefined;

  const logVerdict = (level: 'debug' | 'trace', tool: PolicyTool, verdict: PolicyVerdict, started: number) => {
    if (!log.isLevelEnabled(level)) return;
    const toolId = typeof tool?.id === 'string' ? tool.id : undefined;
    if (verdict.allowed) log[level]({ toolId, allowed: true, durationMs: elapsed(started) }, 'tool admitted');
    else {
      const { by, layer, rule } = verdict;
      log[level]({ toolId, allowed: false, by, layer, rule, durationMs: elapsed(started) }, 'tool rejected');
    }
  };

  const policy: Policy = {
    config: validated.config,
    groups: validated.groups,

    check(tool, context) {
      const started = now();
      const parsed = parseContext(context);
      const verdict = evaluate(tool, targetOf(tool), applicableLayers(parsed), parsed.isOwner === true);
      logVerdict('debug', tool, verdict, started);
      return verdict;
    },

    filter(tools, context) {
      const started = now();
      if (!Array.isArray(tools)) {
        throw new PolicyError('invalid_argument', `filter expects an array of tools, received ${typeof tools}`, { path: 'tools' });
      }
      const parsed = parseContext(context);
      const layers = applicableLayers(parsed);
      const isOwner = parsed.isOwner === true;
      const traceEach = log.isLevelEnabled('trace');
      const admitted: (typeof tools)[number][] = [];
      for (const tool of tools) {
        const toolStarted = traceEach ? now() : 0;
        const verdict = evaluate(tool, targetOf(tool), layers, isOwner);
        if (verdict.allowed) admitted.push(tool);
        if (traceEach) logVerdict('trace', tool, verdict, toolStarted);
      }
      log.debug(
        { total: tools.length, admitted: admitted.length, layers: layers.map((layer) => layer.path), durationMs: elapsed(started) },
        'catalog filtered',
      );
      return admitted;
    },

    approvalRequirement(tool, context): ApprovalRequirement | undefined {
      const parsed = parseContext(context);
      const target = targetOf(tool);
      if (target === undefined) return undefined;
      for (const layer of applicableLayers(parsed)) {
        const rule = layer.requireApproval?.firstMatch(target);
        if (rule !== undefined) return { layer: layer.path, rule };
      }
      return undefined;
    },

    authorizeCall(request) {
      return authorizeCallWithLogger(log, {
        ...request,
        policy,
        hooks: [...(options.hooks ?? []), ...(request.hooks ?? [])],
        approvals: request.approvals ?? options.approvals,
        timeoutMs: request.timeoutMs ?? options.timeoutMs,
      });
    },
  };
  return Object.freeze(policy);
}

import type { Logger } from 'pino';
import { assertApprovalProvider, assertHooks, authorizeCallWithLogger, resolveTimeouts } from './authorize-call';
import { PolicyError } from './errors';
import { checkToolShape } from './internal/check-tool-shape';
import {
  compilePatternSet,
  toMatchTarget,
  type MatchTarget,
  type PatternEntry,
  type PatternSet,
  type PatternSetRole,
} from './internal/compile-pattern-set';
import { formatPath } from './internal/format-path';
import { createSilentLogger } from './internal/silent-logger';
import { describeDefaultedHints, hintBitsOf } from './internal/tool-hints';
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
  PolicyToolAnnotations,
  PolicyVerdict,
} from './types';

interface CompiledLayer {
  /** Position in evaluation order over every layer of the config (global is 0); names the layer in a scope key. */
  index: number;
  /** Config path of the layer: `global`, `agents.main`, `sandboxes["*"]`. */
  path: string;
  allow: PatternSet | undefined;
  deny: PatternSet | undefined;
  requireApproval: PatternSet | undefined;
  /** The deny entries, kept to fuse the deny lists of a scope into one set. */
  denyEntries: PatternEntry[];
}

type KeyedLayers = { mapName: string; field: keyof PolicyContext; layers: Map<string, CompiledLayer> };

/** What one context selects: the applicable layers and the owner flag, and the key that names them. */
interface Scope {
  key: string;
  /** The layer part of the key: names the fused admission. */
  layersKey: string;
  layers: CompiledLayer[];
  isOwner: boolean;
}

/** The admission test of a scope, fused for `filter`: one deny set for all layers, and the allow lists that can reject. */
interface ScopeAdmission {
  deny: PatternSet | undefined;
  allows: PatternSet[];
}

const ALLOWED: PolicyVerdict = Object.freeze({ allowed: true });
const ANY_KEY = '*';
/** How many fused scope admissions a policy keeps; more distinct layer combinations than this recompile. */
const MAX_CACHED_ADMISSIONS = 256;
/** Numbers each policy, so scope keys of different policy objects never match. */
let policyCount = 0;

function compileLayer(validated: ValidatedPolicyConfig, layer: PolicyLayer, path: string, index: number): CompiledLayer {
  const entries = (patterns: string[] | undefined) => (patterns === undefined ? undefined : validated.toEntries(patterns));
  const compile = (list: PatternEntry[] | undefined, role: PatternSetRole) => (list === undefined ? undefined : compilePatternSet(list, role));
  const denyEntries = entries(layer.deny);
  return {
    index,
    path,
    allow: compile(entries(layer.allow), 'admit'),
    deny: compile(denyEntries, 'restrict'),
    requireApproval: compile(entries(layer.requireApproval), 'restrict'),
    denyEntries: denyEntries ?? [],
  };
}

function fuseAdmission(layers: readonly CompiledLayer[]): ScopeAdmission {
  const denyEntries = layers.flatMap((layer) => layer.denyEntries);
  return {
    deny: denyEntries.length === 0 ? undefined : compilePatternSet(denyEntries, 'restrict'),
    // `allow: ['*']` admits everything, so it can never be the layer that rejects.
    allows: layers.flatMap((layer) => (layer.allow === undefined || layer.allow.matchesEverything ? [] : [layer.allow])),
  };
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
  const serial = ++policyCount;

  let layerCount = 0;
  const globalLayer = compileLayer(validated, validated.config, 'global', layerCount++);
  const keyed: KeyedLayers[] = KEYED_LAYERS.map(([mapName, field]) => {
    const layers = new Map<string, CompiledLayer>();
    for (const [key, layer] of Object.entries(validated.config[mapName] ?? {})) {
      layers.set(key, compileLayer(validated, layer, formatPath([mapName, key]), layerCount++));
    }
    return { mapName, field, layers };
  });

  // The layers that apply to a context, in evaluation order. A keyed layer applies when the context
  // field equals its key; the `*` layer applies whenever the field is set. Nothing else of the context
  // matters but `isOwner`, so the key names exactly these.
  const resolveScope = (context: PolicyContext): Scope => {
    const layers = [globalLayer];
    for (const { field, layers: byKey } of keyed) {
      const value = context[field];
      if (typeof value !== 'string') continue;
      const any = byKey.get(ANY_KEY);
      if (any) layers.push(any);
      const exact = value === ANY_KEY ? undefined : byKey.get(value);
      if (exact) layers.push(exact);
    }
    const isOwner = context.isOwner === true;
    const layersKey = layers.map((layer) => layer.index).join('.');
    return { key: `p${serial}/${isOwner ? 'owner' : 'other'}/${layersKey}`, layersKey, layers, isOwner };
  };

  // Fused admissions by layer combination; bounded, oldest first out.
  const admissions = new Map<string, ScopeAdmission>();
  const admissionOf = (scope: Scope): ScopeAdmission => {
    let admission = admissions.get(scope.layersKey);
    if (admission === undefined) {
      if (admissions.size >= MAX_CACHED_ADMISSIONS) admissions.delete(admissions.keys().next().value!);
      admissions.set(scope.layersKey, (admission = fuseAdmission(scope.layers)));
    }
    return admission;
  };

  const evaluate = (tool: PolicyTool, target: MatchTarget | undefined, scope: Scope): PolicyVerdict => {
    if (target === undefined) {
      const problem = checkToolShape(tool) ?? 'the tool is malformed';
      const id = typeof tool?.id === 'string' ? tool.id : '(no id)';
      return { allowed: false, by: 'policy', layer: 'tool', rule: 'malformed', reason: `tool '${id}' is malformed: ${problem}` };
    }
    if (tool.ownerOnly === true && !scope.isOwner) {
      return {
        allowed: false,
        by: 'owner-only',
        layer: 'owner-only',
        rule: 'ownerOnly',
        reason: `tool '${tool.id}' is owner-only and the caller is not the owner`,
      };
    }
    for (const layer of scope.layers) {
      const denied = layer.deny?.firstMatch(target);
      if (denied !== undefined) {
        return {
          allowed: false,
          by: 'policy',
          layer: layer.path,
          rule: `deny:${denied}`,
          reason: `tool '${tool.id}' is denied by '${denied}' in ${layer.path}${withDefaultedHints(denied, tool.annotations)}`,
        };
      }
      if (layer.allow !== undefined && !layer.allow.matches(target)) {
        // Say so when only the tool's own (uncounted) hints would have admitted it.
        const note = layer.allow.matchesStated(target) ? " (its annotation hints do not count toward an allow list: the tool is not trusted)" : '';
        return {
          allowed: false,
          by: 'policy',
          layer: layer.path,
          rule: 'allow',
          reason: `tool '${tool.id}' is not in the allow list of ${layer.path}${note}`,
        };
      }
    }
    return ALLOWED;
  };

  // The boolean of `evaluate`, for `filter`: the deny lists of every layer fused into one set, no verdicts built.
  const admits = (tool: PolicyTool, target: MatchTarget | undefined, scope: Scope, admission: ScopeAdmission): boolean => {
    if (target === undefined || (tool.ownerOnly === true && !scope.isOwner)) return false;
    if (admission.deny !== undefined && admission.deny.matches(target)) return false;
    for (const allow of admission.allows) if (!allow.matches(target)) return false;
    return true;
  };

  const targetOf = (tool: PolicyTool): MatchTarget | undefined =>
    checkToolShape(tool) === undefined
      ? toMatchTarget(tool.source, tool.owner, tool.name, hintBitsOf(tool.annotations), tool.trusted === true)
      : undefined;

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
      const verdict = evaluate(tool, targetOf(tool), resolveScope(parseContext(context)));
      logVerdict('debug', tool, verdict, started);
      return verdict;
    },

    filter(tools, context) {
      const started = now();
      if (!Array.isArray(tools)) {
        throw new PolicyError('invalid_argument', `filter expects an array of tools, received ${typeof tools}`, { path: 'tools' });
      }
      const scope = resolveScope(parseContext(context));
      const admitted: (typeof tools)[number][] = [];
      if (log.isLevelEnabled('trace')) {
        // Tracing wants every verdict with its layer and rule, so take the slow path.
        for (const tool of tools) {
          const toolStarted = now();
          const verdict = evaluate(tool, targetOf(tool), scope);
          if (verdict.allowed) admitted.push(tool);
          logVerdict('trace', tool, verdict, toolStarted);
        }
      } else {
        const admission = admissionOf(scope);
        for (const tool of tools) if (admits(tool, targetOf(tool), scope, admission)) admitted.push(tool);
      }
      log.debug(
        {
          total: tools.length,
          admitted: admitted.length,
          layers: scope.layers.map((layer) => layer.path),
          scopeKey: scope.key,
          durationMs: elapsed(started),
        },
        'catalog filtered',
      );
      return admitted;
    },

    approvalRequirement(tool, context): ApprovalRequirement | undefined {
      const scope = resolveScope(parseContext(context));
      const target = targetOf(tool);
      if (target === undefined) return undefined;
      for (const layer of scope.layers) {
        const rule = layer.requireApproval?.firstMatch(target);
        if (rule === undefined) continue;
        const note = describeDefaultedHints(rule, tool.annotations);
        return note === undefined ? { layer: layer.path, rule } : { layer: layer.path, rule, note };
      }
      return undefined;
    },

    scopeKey(context) {
      return resolveScope(parseContext(context)).key;
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

/** " (no annotations: MCP's default destructiveHint is true)" when a hint rule matched a hint the tool does not state. */
function withDefaultedHints(pattern: string, annotations: PolicyToolAnnotations | undefined): string {
  const note = describeDefaultedHints(pattern, annotations);
  return note === undefined ? '' : ` (${note})`;
}

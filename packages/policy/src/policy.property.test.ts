// Property-based tests over random catalogs, layer sets and contexts. The oracle below is a deliberately
// naive re-statement of the rules (string globs, no regexes, no sets, hints read field by field), so the
// compiled matcher is checked against an independent reading of the README.
import fc from 'fast-check';
import { propertySettings } from '@tool-search/property-settings';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { authorizeCall } from './authorize-call';
import { isDeepStrictEqual } from 'node:util';
import { BUILTIN_TOOL_GROUPS } from './builtin-tool-groups';
import { canonicalizePolicyConfig } from './canonicalize-policy-config';
import { createPolicy } from './create-policy';
import type { BeforeToolCallHook, PolicyConfig, PolicyContext, PolicyLayer, PolicyTool, PolicyToolAnnotations } from './types';

const SOURCES = ['openclaw', 'plugin', 'mcp', 'client'] as const;
const OWNERS = ['core', 'github', 'acme', 'Slack', 'we:ird'];
const NAMES = ['read', 'write', 'exec', 'list_issues', 'create_issue', 'browser_open', 'Message', 'a:b', 'web_fetch'];
const KEYS = ['a', 'b', '*'];
const DIMENSIONS = [
  ['agents', 'agentId'],
  ['profiles', 'profile'],
  ['sandboxes', 'sandboxId'],
  ['channels', 'channel'],
  ['runtimes', 'runtime'],
  ['sessions', 'sessionId'],
] as const;
const USER_GROUPS: Record<string, string[]> = {
  'group:mine': ['exec', 'mcp:github:*', 'group:fs'],
  'group:risky': ['hint:destructive', 'browser_*', 'hint:OPENWORLD'],
};
const HINTS = ['readOnly', 'destructive', 'idempotent', 'openWorld'] as const;
type Hint = (typeof HINTS)[number];
const LISTS = ['allow', 'deny', 'requireApproval'] as const;

// ---- generators ----------------------------------------------------------------------------------

const maybeBoolean = fc.option(fc.boolean(), { nil: undefined });
const annotationsArb: fc.Arbitrary<PolicyToolAnnotations | undefined> = fc.option(
  fc.record(
    { title: fc.constant('A title'), readOnlyHint: fc.boolean(), destructiveHint: fc.boolean(), idempotentHint: fc.boolean(), openWorldHint: fc.boolean() },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);

const toolArb: fc.Arbitrary<PolicyTool> = fc
  .record({
    source: fc.constantFrom(...SOURCES),
    owner: fc.constantFrom(...OWNERS),
    name: fc.constantFrom(...NAMES),
    ownerOnly: maybeBoolean,
    trusted: maybeBoolean,
    annotations: annotationsArb,
  })
  .map(({ source, owner, name, ownerOnly, trusted, annotations }) => {
    const tool: PolicyTool = { id: `${source}:${owner}:${name}`, source, owner, name };
    if (ownerOnly !== undefined) tool.ownerOnly = ownerOnly;
    if (trusted !== undefined) tool.trusted = trusted;
    if (annotations !== undefined) tool.annotations = annotations;
    return tool;
  });

const catalogArb = fc.uniqueArray(toolArb, { selector: (tool) => tool.id, minLength: 1, maxLength: 25 });

const segmentGlobArb = (values: readonly string[]) =>
  fc.oneof(
    fc.constantFrom(...values),
    fc.constant('*'),
    fc.constantFrom(...values).map((value) => `${value.slice(0, 2)}*`),
    fc.constantFrom(...values).map((value) => `*${value.slice(-2)}`.toUpperCase()),
  );

const patternArb: fc.Arbitrary<string> = fc.oneof(
  segmentGlobArb(NAMES.filter((name) => !name.includes(':'))),
  fc
    .tuple(
      fc.oneof(fc.constantFrom(...SOURCES), fc.constant('*')),
      segmentGlobArb(OWNERS.filter((owner) => !owner.includes(':'))),
      segmentGlobArb(NAMES.filter((name) => !name.includes(':'))),
    )
    .map((segments) => segments.join(':')),
  fc.constantFrom('group:fs', 'group:runtime', 'group:mcp', 'group:plugins', 'group:mine', 'group:risky'),
  fc.tuple(fc.constantFrom(...HINTS), fc.boolean()).map(([hint, upper]) => `hint:${upper ? hint.toUpperCase() : hint}`),
);

const layerArb: fc.Arbitrary<PolicyLayer> = fc.record(
  {
    allow: fc.array(patternArb, { maxLength: 4 }),
    deny: fc.array(patternArb, { maxLength: 3 }),
    requireApproval: fc.array(patternArb, { maxLength: 2 }),
  },
  { requiredKeys: [] },
);

const layerMapArb = fc.dictionary(fc.constantFrom(...KEYS), layerArb, { maxKeys: 3 });

const configArb: fc.Arbitrary<PolicyConfig> = fc
  .tuple(layerArb, fc.record(Object.fromEntries(DIMENSIONS.map(([map]) => [map, layerMapArb])), { requiredKeys: [] }))
  .map(([global, keyed]) => ({ ...global, ...keyed, groups: USER_GROUPS }));

const contextValueArb = fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined });
const contextFieldsArb = fc.record({
  agentId: contextValueArb,
  profile: contextValueArb,
  sandboxId: contextValueArb,
  channel: contextValueArb,
  runtime: contextValueArb,
  sessionId: contextValueArb,
  senderId: contextValueArb,
  isOwner: fc.option(fc.boolean(), { nil: undefined }),
});
const compact = (context: Record<string, unknown>): PolicyContext =>
  Object.fromEntries(Object.entries(context).filter(([, value]) => value !== undefined)) as PolicyContext;
const contextArb: fc.Arbitrary<PolicyContext> = contextFieldsArb.map(compact);
// Two contexts, the second one the first with some fields drawn again: equal scope keys are common.
const contextPairArb: fc.Arbitrary<[PolicyContext, PolicyContext]> = fc
  .tuple(contextFieldsArb, contextFieldsArb, fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }))
  .map(([first, other, redraw]) => {
    const keys = Object.keys(first) as (keyof typeof first)[];
    const second = Object.fromEntries(keys.map((key, index) => [key, redraw[index] ? other[key] : first[key]]));
    return [compact(first), compact(second)];
  });

// ---- the oracle ----------------------------------------------------------------------------------

function globMatches(glob: string, text: string): boolean {
  const g = glob.toLowerCase();
  const t = text.toLowerCase();
  const match = (gi: number, ti: number): boolean => {
    if (gi === g.length) return ti === t.length;
    if (g[gi] === '*') return match(gi + 1, ti) || (ti < t.length && match(gi, ti + 1));
    return ti < t.length && g[gi] === t[ti] && match(gi + 1, ti + 1);
  };
  return match(0, 0);
}

/** The README's reading of one hint: as stated, else the spec default (read-only implies not destructive and idempotent). */
function hintHolds(tool: PolicyTool, hint: Hint): boolean {
  const stated = tool.annotations ?? {};
  const readOnly = stated.readOnlyHint ?? false;
  if (hint === 'readOnly') return readOnly;
  if (hint === 'destructive') return stated.destructiveHint ?? !readOnly;
  if (hint === 'idempotent') return stated.idempotentHint ?? readOnly;
  return stated.openWorldHint ?? true;
}

/** `admitting`: the pattern sits in an allow list, where only a trusted tool's hints count. */
function patternMatches(pattern: string, tool: PolicyTool, admitting: boolean, groups: Record<string, string[]>): boolean {
  const lower = pattern.toLowerCase();
  if (lower.startsWith('group:')) {
    const members = BUILTIN_TOOL_GROUPS[lower] ?? groups[lower] ?? [];
    return members.some((member) => patternMatches(member, tool, admitting, groups));
  }
  if (lower.startsWith('hint:')) {
    const hint = HINTS.find((name) => name.toLowerCase() === lower.slice('hint:'.length))!;
    return (!admitting || tool.trusted === true) && hintHolds(tool, hint);
  }
  const segments = pattern.split(':');
  if (segments.length === 1) return globMatches(pattern, tool.name);
  return globMatches(segments[0]!, tool.source) && globMatches(segments[1]!, tool.owner) && globMatches(segments[2]!, tool.name);
}

function oracleLayers(config: PolicyConfig, context: PolicyContext): PolicyLayer[] {
  const layers: PolicyLayer[] = [config];
  for (const [map, field] of DIMENSIONS) {
    const value = context[field];
    if (value === undefined) continue;
    const any = config[map]?.['*'];
    if (any) layers.push(any);
    const exact = value === '*' ? undefined : config[map]?.[value];
    if (exact) layers.push(exact);
  }
  return layers;
}

function oracleAdmits(config: PolicyConfig, tool: PolicyTool, context: PolicyContext): boolean {
  if (tool.ownerOnly === true && context.isOwner !== true) return false;
  const groups = config.groups ?? {};
  return oracleLayers(config, context).every(
    (layer) =>
      !(layer.deny ?? []).some((pattern) => patternMatches(pattern, tool, false, groups)) &&
      (layer.allow === undefined || layer.allow.some((pattern) => patternMatches(pattern, tool, true, groups))),
  );
}

function oracleNeedsApproval(config: PolicyConfig, tool: PolicyTool, context: PolicyContext): boolean {
  const groups = config.groups ?? {};
  return oracleLayers(config, context).some((layer) => (layer.requireApproval ?? []).some((pattern) => patternMatches(pattern, tool, false, groups)));
}

/** The same config with every hint pattern taken out (from every list and group). */
function withoutHints(config: PolicyConfig): PolicyConfig {
  const keep = (patterns: string[]) => patterns.filter((pattern) => !pattern.toLowerCase().startsWith('hint:'));
  const stripLayer = (layer: PolicyLayer): PolicyLayer =>
    Object.fromEntries(LISTS.filter((list) => layer[list] !== undefined).map((list) => [list, keep(layer[list]!)]));
  const stripped: PolicyConfig = { ...stripLayer(config) };
  if (config.groups) stripped.groups = Object.fromEntries(Object.entries(config.groups).map(([ref, members]) => [ref, keep(members)]));
  for (const [map] of DIMENSIONS) {
    const layers = config[map];
    if (layers) stripped[map] = Object.fromEntries(Object.entries(layers).map(([key, layer]) => [key, stripLayer(layer)]));
  }
  return stripped;
}

/** The same config with every object's keys in a seeded random order and some `undefined` fields added. */
function reordered(config: PolicyConfig, seed: number): PolicyConfig {
  let state = seed >>> 0 || 1;
  const next = () => ((state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32);
  // Undefined fields only where the schema takes them: the lists of a layer (in a map, `undefined` is no layer).
  const visit = (value: unknown, isLayer: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => visit(item, false));
    if (typeof value !== 'object' || value === null) return value;
    const inMap = (key: string) => DIMENSIONS.some(([map]) => map === key);
    const entries: Array<readonly [string, unknown]> = Object.entries(value).map(([key, field]) => [
      key,
      isLayer && inMap(key) && field !== undefined ? Object.fromEntries(Object.entries(field as object).map(([name, layer]) => [name, visit(layer, true)])) : visit(field, false),
    ]);
    const absent = LISTS.find((list) => !(list in value));
    if (isLayer && absent !== undefined && next() < 0.3) entries.push([absent, undefined]);
    entries.sort(() => next() - 0.5);
    return Object.fromEntries(entries);
  };
  return visit(config, true) as PolicyConfig;
}
/** The config as plain JSON data: `undefined` fields gone (key order does not count for `isDeepStrictEqual`). */
const plainData = (config: PolicyConfig): unknown => JSON.parse(JSON.stringify(config));
// A config and a second one: the first in another key order, or with a layer list or a dimension of a third
// config put in, in another key order. Equal content is common, and so are near misses.
const configPairArb: fc.Arbitrary<[PolicyConfig, PolicyConfig]> = fc
  .tuple(configArb, configArb, fc.constantFrom('reordered', 'global deny', 'global allow', 'agents', 'sessions'), fc.integer())
  .map(([config, other, how, seed]) => {
    const changed: PolicyConfig = { ...config };
    if (how === 'global deny') changed.deny = other.deny;
    if (how === 'global allow') changed.allow = other.allow;
    if (how === 'agents' || how === 'sessions') changed[how] = other[how];
    return [config, reordered(changed, seed)];
  });

// ---- properties ----------------------------------------------------------------------------------

// Seeded (a fixed seed under `pnpm test`, so the coverage counts below are what they were when last checked; a
// fresh seed and more runs under `pnpm fuzz:isolation`).
const settings = propertySettings();
fc.configureGlobal({ seed: settings.seed });
const SYNC_RUNS = settings.runs(200);
const ASYNC_RUNS = settings.runs(50);

describe('policy properties', () => {
  it('check agrees with a naive reading of the rules', () => {
    fc.assert(
      fc.property(configArb, catalogArb, contextArb, (config, tools, context) => {
        const policy = createPolicy(config);
        for (const tool of tools) expect(policy.check(tool, context).allowed).toBe(oracleAdmits(config, tool, context));
      }),
      { numRuns: SYNC_RUNS },
    );
  });

  it('filter and check agree', () => {
    fc.assert(
      fc.property(configArb, catalogArb, contextArb, (config, tools, context) => {
        const policy = createPolicy(config);
        expect(policy.filter(tools, context)).toEqual(tools.filter((tool) => policy.check(tool, context).allowed));
      }),
      { numRuns: SYNC_RUNS },
    );
  });

  it('never admits a tool denied in any applicable layer', () => {
    fc.assert(
      fc.property(configArb, catalogArb, contextArb, (config, tools, context) => {
        const policy = createPolicy(config);
        const layers = oracleLayers(config, context);
        for (const tool of policy.filter(tools, context)) {
          for (const layer of layers) expect((layer.deny ?? []).some((pattern) => patternMatches(pattern, tool, false, config.groups ?? {}))).toBe(false);
        }
      }),
      { numRuns: SYNC_RUNS },
    );
  });

  it('approvalRequirement agrees with a naive reading of the rules', () => {
    fc.assert(
      fc.property(configArb, catalogArb, contextArb, (config, tools, context) => {
        const policy = createPolicy(config);
        for (const tool of tools) {
          expect(policy.approvalRequirement(tool, context) !== undefined).toBe(oracleNeedsApproval(config, tool, context));
        }
      }),
      { numRuns: SYNC_RUNS },
    );
  });

  it("never admits an untrusted tool on its hints: whatever it admits, the policy without hint patterns admits too", () => {
    fc.assert(
      fc.property(configArb, catalogArb, contextArb, (config, tools, context) => {
        const policy = createPolicy(config);
        const stripped = createPolicy(withoutHints(config));
        for (const tool of tools.filter((candidate) => candidate.trusted !== true)) {
          if (policy.check(tool, context).allowed) expect(stripped.check(tool, context).allowed).toBe(true);
        }
      }),
      { numRuns: SYNC_RUNS },
    );
  });

  it("only adds approvals through hints: what needs approval without hint patterns still needs it", () => {
    fc.assert(
      fc.property(configArb, catalogArb, contextArb, (config, tools, context) => {
        const policy = createPolicy(config);
        const stripped = createPolicy(withoutHints(config));
        for (const tool of tools) {
          if (stripped.approvalRequirement(tool, context) !== undefined) expect(policy.approvalRequirement(tool, context)).toBeDefined();
        }
      }),
      { numRuns: SYNC_RUNS },
    );
  });

  it('trust only widens: a tool admitted while untrusted is admitted when trusted', () => {
    fc.assert(
      fc.property(configArb, catalogArb, contextArb, (config, tools, context) => {
        const policy = createPolicy(config);
        for (const tool of tools) {
          const untrusted = { ...tool, trusted: false };
          if (policy.check(untrusted, context).allowed) expect(policy.check({ ...tool, trusted: true }, context).allowed).toBe(true);
        }
      }),
      { numRuns: SYNC_RUNS },
    );
  });

  it('filter with per-tool tracing admits exactly what the fused path admits', () => {
    const sink = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    fc.assert(
      fc.property(configArb, catalogArb, contextArb, (config, tools, context) => {
        const traced = createPolicy(config, { logger: pino({ level: 'trace' }, sink) });
        expect(traced.filter(tools, context)).toEqual(createPolicy(config).filter(tools, context));
      }),
      { numRuns: SYNC_RUNS / 4 },
    );
  });

  it('gives equal scope keys exactly when the same layers apply to the same kind of caller', () => {
    fc.assert(
      fc.property(configArb, contextPairArb, (config, [first, second]) => {
        const policy = createPolicy(config);
        const sameLayers = (a: PolicyLayer[], b: PolicyLayer[]) => a.length === b.length && a.every((layer, index) => layer === b[index]);
        const expected = sameLayers(oracleLayers(config, first), oracleLayers(config, second)) && (first.isOwner === true) === (second.isOwner === true);
        expect(policy.scopeKey(first) === policy.scopeKey(second)).toBe(expected);
      }),
      { numRuns: SYNC_RUNS },
    );
  });

  it('gives identical check, filter and approvalRequirement results to contexts with equal scope keys', () => {
    let equalKeys = 0;
    fc.assert(
      fc.property(configArb, catalogArb, contextPairArb, (config, tools, [first, second]) => {
        const policy = createPolicy(config);
        if (policy.scopeKey(first) !== policy.scopeKey(second)) return;
        equalKeys++;
        expect(policy.filter(tools, second)).toEqual(policy.filter(tools, first));
        for (const tool of tools) {
          expect(policy.check(tool, second)).toEqual(policy.check(tool, first));
          expect(policy.approvalRequirement(tool, second)).toEqual(policy.approvalRequirement(tool, first));
        }
      }),
      { numRuns: SYNC_RUNS },
    );
    // The pairs are built so that equal keys are common; a run where none came up tested nothing.
    expect(equalKeys).toBeGreaterThan(SYNC_RUNS / 10);
  });

  it('gives two configs one canonical key exactly when their content is equal (key order and undefined fields aside)', () => {
    let equalKeys = 0;
    let differentKeys = 0;
    fc.assert(
      fc.property(configPairArb, ([first, second]) => {
        const [a, b] = [canonicalizePolicyConfig(first), canonicalizePolicyConfig(second)];
        expect(a.key === b.key).toBe(isDeepStrictEqual(plainData(first), plainData(second)));
        // The key holds the whole content: nothing that tells two configs apart is lost in it.
        expect(JSON.parse(b.key)).toEqual({ config: plainData(second) });
        if (a.key === b.key) equalKeys++;
        else differentKeys++;
      }),
      { numRuns: SYNC_RUNS },
    );
    expect(Math.min(equalKeys, differentKeys)).toBeGreaterThan(SYNC_RUNS / 10);
  });

  it('compiles configs with equal canonical keys, and the canonical copy, to identical answers; configs that answer differently never share a key', () => {
    let answeredDifferently = 0;
    fc.assert(
      fc.property(configPairArb, catalogArb, fc.array(contextArb, { minLength: 1, maxLength: 4 }), ([first, second], tools, contexts) => {
        const [a, b] = [canonicalizePolicyConfig(first), canonicalizePolicyConfig(second)];
        const policies = [createPolicy(first), createPolicy(a.config), createPolicy(second), createPolicy(b.config)];
        const answers = policies.map((policy) =>
          contexts.map((context) => ({
            filter: policy.filter(tools, context).map((tool) => tool.id),
            verdicts: tools.map((tool) => [policy.check(tool, context), policy.approvalRequirement(tool, context)]),
          })),
        );
        expect(answers[1]).toEqual(answers[0]);
        expect(answers[3]).toEqual(answers[2]);
        if (a.key === b.key) expect(answers[2]).toEqual(answers[0]);
        const oracleDiffers = contexts.some((context) =>
          tools.some((tool) => oracleAdmits(first, tool, context) !== oracleAdmits(second, tool, context) || oracleNeedsApproval(first, tool, context) !== oracleNeedsApproval(second, tool, context)),
        );
        if (oracleDiffers) {
          answeredDifferently++;
          expect(a.key).not.toBe(b.key);
        }
      }),
      { numRuns: SYNC_RUNS / 2 },
    );
    expect(answeredDifferently).toBeGreaterThan(SYNC_RUNS / 20);
  });

  it('never admits an owner-only tool to a non-owner', () => {
    fc.assert(
      fc.property(configArb, catalogArb, contextArb, (config, tools, context) => {
        const policy = createPolicy(config);
        const nonOwner = { ...context, isOwner: context.isOwner === true ? false : context.isOwner };
        expect(policy.filter(tools, nonOwner).filter((tool) => tool.ownerOnly === true)).toEqual([]);
      }),
      { numRuns: SYNC_RUNS },
    );
  });

  // Well-behaved hooks: pass, rewrite or block. Approvals: allow or deny.
  const hookBehaviourArb = fc.constantFrom('pass', 'rewrite', 'block');
  const makeHook = (behaviour: string, index: number): BeforeToolCallHook => ({
    id: `h${index}`,
    run: (event) => {
      if (behaviour === 'rewrite') return { args: { ...event.args, [`k${index}`]: index } };
      if (behaviour === 'block') return { block: true, reason: `h${index} says no` };
      return undefined;
    },
  });

  it('authorizeCall never allows a tool that check rejects, whatever the hooks and approvals do', async () => {
    await fc.assert(
      fc.asyncProperty(
        configArb,
        toolArb,
        contextArb,
        fc.array(hookBehaviourArb, { maxLength: 3 }),
        fc.constantFrom('allow', 'deny'),
        async (config, tool, context, behaviours, decision) => {
          const policy = createPolicy(config);
          const verdict = policy.check(tool, context);
          const result = await authorizeCall({
            policy,
            tool,
            args: { q: 1 },
            context,
            hooks: behaviours.map(makeHook),
            approvals: { requestApproval: () => ({ decision }) },
          });
          if (!verdict.allowed) expect(result).toMatchObject({ status: 'blocked', by: verdict.by, layer: verdict.layer, rule: verdict.rule });
          if (result.status === 'allowed') {
            expect(verdict.allowed).toBe(true);
            expect(behaviours).not.toContain('block');
            if (policy.approvalRequirement(tool, context)) expect(decision).toBe('allow');
          }
        },
      ),
      { numRuns: ASYNC_RUNS * 2 },
    );
  });

  // Misbehaviour: throw, reject, hang (past a 2 ms limit) or return garbage.
  const garbageArb = fc
    .anything()
    .filter((value) => value !== undefined && value !== null && !(typeof value === 'object' && ('args' in value || 'block' in value || 'decision' in value)));
  const misbehaviourArb = fc.oneof(
    fc.constant<() => unknown>(() => {
      throw new Error('sync failure');
    }),
    fc.constant<() => unknown>(() => Promise.reject(new Error('async failure'))),
    fc.constant<() => unknown>(() => new Promise(() => {})),
    garbageArb.map((value) => () => value),
    garbageArb.map((value) => () => Promise.resolve(value)),
  );
  const openPolicy = createPolicy({ requireApproval: ['*'] });
  const someTool: PolicyTool = { id: 'mcp:github:create_issue', source: 'mcp', owner: 'github', name: 'create_issue' };

  it('a throwing, hanging or garbage-returning hook always blocks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('pass', 'rewrite'), { maxLength: 2 }),
        misbehaviourArb,
        fc.array(fc.constantFrom('pass', 'rewrite'), { maxLength: 2 }),
        async (before, misbehaviour, after) => {
          const bad: BeforeToolCallHook = { id: 'bad', run: misbehaviour as BeforeToolCallHook['run'] };
          const hooks = [...before.map(makeHook), bad, ...after.map((behaviour, index) => makeHook(behaviour, index + 10))];
          const result = await authorizeCall({
            policy: openPolicy,
            tool: someTool,
            args: {},
            context: {},
            hooks,
            approvals: { requestApproval: () => ({ decision: 'allow' }) },
            timeoutMs: { hook: 2 },
          });
          expect(result).toMatchObject({ status: 'blocked', by: 'hook', hookId: 'bad' });
        },
      ),
      { numRuns: ASYNC_RUNS },
    );
  });

  it('a throwing, hanging or garbage-returning approval provider always blocks', async () => {
    await fc.assert(
      fc.asyncProperty(misbehaviourArb, async (misbehaviour) => {
        const result = await authorizeCall({
          policy: openPolicy,
          tool: someTool,
          args: {},
          context: {},
          approvals: { requestApproval: misbehaviour as never },
          timeoutMs: { approval: 2 },
        });
        expect(result).toMatchObject({ status: 'blocked', by: 'approval' });
      }),
      { numRuns: ASYNC_RUNS },
    );
  });
});

// Validates a policy config end to end: shape (zod), pattern syntax, group references (built-in,
// host and config groups; nested groups allowed, cycles rejected). Every problem is collected with
// the path of the field that caused it.
import type { z } from 'zod';
import { BUILTIN_TOOL_GROUPS } from '../builtin-tool-groups';
import { PolicyError, type PolicyErrorIssue } from '../errors';
import { policyConfigSchema, policyGroupsSchema } from '../schemas';
import type { PolicyConfig, PolicyGroups } from '../types';
import type { PatternEntry } from './compile-pattern-set';
import { formatPath } from './format-path';
import { isGroupReference, parsePattern, type ParsedPattern } from './pattern-syntax';

/** The layer maps of a config, in evaluation order, with the context field that selects their key. */
export const KEYED_LAYERS = [
  ['agents', 'agentId'],
  ['profiles', 'profile'],
  ['sandboxes', 'sandboxId'],
  ['channels', 'channel'],
  ['runtimes', 'runtime'],
  ['sessions', 'sessionId'],
] as const;

const LAYER_LISTS = ['allow', 'deny', 'requireApproval'] as const;

/** A validated config and the means to expand its (already valid) pattern lists. */
export interface ValidatedPolicyConfig {
  config: PolicyConfig;
  groups: PolicyGroups;
  /** The host's `groups` option as validated (absent when none was given). */
  hostGroups: Record<string, string[]> | undefined;
  /** Expands a validated pattern list into entries; only call with lists from `config`. */
  toEntries(patterns: readonly string[]): PatternEntry[];
}

interface GroupDefinition {
  members: readonly string[];
  path: PropertyKey[];
}

function zodIssues(error: z.ZodError, prefix: PropertyKey[]): PolicyErrorIssue[] {
  return error.issues.map((issue) => {
    // A bad record key nests the key's own issue; surface that message, it says what a key must be.
    const nested = issue.code === 'invalid_key' ? issue.issues[0]?.message : undefined;
    return { path: formatPath([...prefix, ...issue.path]), message: nested ? `invalid key: ${nested}` : issue.message };
  });
}

function fail(issues: PolicyErrorIssue[], subject: string): never {
  const first = issues[0]!;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  throw new PolicyError('invalid_config', `invalid ${subject} at ${first.path}: ${first.message}${more}`, {
    path: first.path,
    issues,
  });
}

/** Validates `input` (and the host's `groups` option) or throws a `PolicyError('invalid_config')`. */
export function validatePolicyConfig(input: unknown, hostGroups?: unknown): ValidatedPolicyConfig {
  const issues: PolicyErrorIssue[] = [];

  const parsedHostGroups = hostGroups === undefined ? undefined : policyGroupsSchema.safeParse(hostGroups);
  if (parsedHostGroups && !parsedHostGroups.success) issues.push(...zodIssues(parsedHostGroups.error, ['options', 'groups']));
  const parsedConfig = policyConfigSchema.safeParse(input);
  if (!parsedConfig.success) issues.push(...zodIssues(parsedConfig.error, []));
  if (issues.length > 0 || !parsedConfig.success) fail(issues, 'policy config');
  const config: PolicyConfig = parsedConfig.data;

  // Group definitions, keyed case-insensitively like every other pattern.
  const definitions = new Map<string, GroupDefinition>();
  for (const [ref, members] of Object.entries(BUILTIN_TOOL_GROUPS)) {
    definitions.set(ref, { members, path: ['BUILTIN_TOOL_GROUPS', ref] });
  }
  const define = (groups: Record<string, string[]> | undefined, prefix: PropertyKey[]) => {
    for (const [ref, members] of Object.entries(groups ?? {})) {
      const key = ref.toLowerCase();
      const existing = definitions.get(key);
      if (existing) {
        const what = existing.path[0] === 'BUILTIN_TOOL_GROUPS' ? 'a built-in group' : `already defined at ${formatPath(existing.path)}`;
        issues.push({ path: formatPath([...prefix, ref]), message: `group '${ref}' redefines ${what}` });
        continue;
      }
      definitions.set(key, { members, path: [...prefix, ref] });
    }
  };
  define(parsedHostGroups?.success ? parsedHostGroups.data : undefined, ['options', 'groups']);
  define(config.groups, ['groups']);

  // Expand groups to leaf patterns (memoised; a group on the current stack is a cycle).
  const resolved = new Map<string, ParsedPattern[]>();
  const resolving = new Set<string>();
  const resolveGroup = (key: string): ParsedPattern[] => {
    const done = resolved.get(key);
    if (done) return done;
    const definition = definitions.get(key)!;
    resolving.add(key);
    const leaves: ParsedPattern[] = [];
    definition.members.forEach((member, index) => {
      leaves.push(...resolveOne(member, [...definition.path, index]));
    });
    resolving.delete(key);
    resolved.set(key, leaves);
    return leaves;
  };
  const resolveOne = (pattern: string, path: PropertyKey[]): ParsedPattern[] => {
    if (isGroupReference(pattern)) {
      const key = pattern.toLowerCase();
      if (!definitions.has(key)) {
        const known = [...definitions.keys()].sort().join(', ');
        issues.push({ path: formatPath(path), message: `unknown group '${pattern}'; known groups: ${known}` });
        return [];
      }
      if (resolving.has(key)) {
        issues.push({ path: formatPath(path), message: `group '${pattern}' refers to itself (a cycle)` });
        return [];
      }
      return resolveGroup(key);
    }
    const parsed = parsePattern(pattern);
    if ('error' in parsed) {
      issues.push({ path: formatPath(path), message: `invalid pattern '${pattern}': ${parsed.error}` });
      return [];
    }
    return [parsed];
  };

  for (const key of definitions.keys()) resolveGroup(key);
  const checkLayer = (layer: PolicyConfig, prefix: PropertyKey[]) => {
    for (const list of LAYER_LISTS) {
      layer[list]?.forEach((pattern, index) => resolveOne(pattern, [...prefix, list, index]));
    }
  };
  checkLayer(config, []);
  for (const [mapName] of KEYED_LAYERS) {
    for (const [key, layer] of Object.entries(config[mapName] ?? {})) checkLayer(layer, [mapName, key]);
  }
  if (issues.length > 0) fail(issues, 'policy config');

  const groups: PolicyGroups = {};
  for (const [key, definition] of definitions) groups[key] = Object.freeze([...definition.members]);

  return {
    config,
    groups: Object.freeze(groups),
    hostGroups: parsedHostGroups?.success ? parsedHostGroups.data : undefined,
    toEntries: (patterns) =>
      patterns.map((pattern) => ({
        pattern,
        leaves: isGroupReference(pattern) ? resolved.get(pattern.toLowerCase())! : [parsePattern(pattern) as ParsedPattern],
      })),
  };
}

import { DEFAULT_MAX_SEARCH_LIMIT, DEFAULT_SEARCH_LIMIT, SEARCH_LIMIT_CEILING } from '@tool-search/catalog';
import type { Mode } from '@tool-search/modes';
import { DEFAULT_LIMITS, LIMIT_BOUNDS } from '@tool-search/sandbox-runner';
import { GatewayAdapterError } from './errors.js';
import { formatZodError } from './internal/format-zod-error.js';
import { toolSearchConfigObjectSchema, toolSearchConfigSchema } from './schemas.js';

/** The model-facing mode a session renders (the modes package's `Mode`). */
export type ToolSearchMode = Mode;

/** Why a session renders `direct`, when it does. */
export type DirectReason = 'disabled' | 'native';

/** The validated, defaulted `tools.toolSearch` setting. */
export interface ResolvedToolSearchConfig {
  readonly kind: 'resolved-tool-search-config';
  /** The mode asked for: `direct` when off or opted out. Code mode may still fall back at session start. */
  mode: ToolSearchMode;
  /** Set when `mode` is `direct`: off (`false`, `enabled: false`, env `off`) or a harness with native tool search. */
  directReason?: DirectReason;
  codeTimeoutMs: number;
  searchDefaultLimit: number;
  maxSearchLimit: number;
  directory: { maxChars?: number; contextWindowTokens?: number };
}

/** Environment read by `resolveToolSearchConfig`: `TOOL_SEARCH_MODE` = off | native | code | tools | directory. */
export type ToolSearchEnv = Readonly<Record<string, string | undefined>>;

/**
 * Defaults and bounds from the issue (timeout 10 s clamped 1–60 s; limits 8 and 20, ceiling 50), taken from
 * the packages that enforce them: the sandbox runner's timeout limit and the catalog's search limits.
 */
export const TOOL_SEARCH_DEFAULTS = Object.freeze({
  codeTimeoutMs: DEFAULT_LIMITS.timeoutMs,
  minCodeTimeoutMs: LIMIT_BOUNDS.timeoutMs[0],
  maxCodeTimeoutMs: LIMIT_BOUNDS.timeoutMs[1],
  searchDefaultLimit: DEFAULT_SEARCH_LIMIT,
  maxSearchLimit: DEFAULT_MAX_SEARCH_LIMIT,
  searchLimitCeiling: SEARCH_LIMIT_CEILING,
});

const ENV_MODES = ['off', 'native', 'code', 'tools', 'directory'] as const;

/**
 * Validates the `tools.toolSearch` setting (`true` = code mode, `false` or unset = off, or an object) and
 * fills in defaults. An unknown key or a wrong type throws `GatewayAdapterError('invalid_config')` naming its path.
 */
export function resolveToolSearchConfig(value: unknown, env: ToolSearchEnv = {}): ResolvedToolSearchConfig {
  if (isResolvedToolSearchConfig(value)) return value;
  const setting = value === undefined ? false : value;
  if (typeof setting !== 'boolean' && (typeof setting !== 'object' || setting === null || Array.isArray(setting))) {
    throw new GatewayAdapterError(
      'invalid_config',
      `Invalid tools.toolSearch setting: expected true, false or an object, received ${Array.isArray(setting) ? 'an array' : setting === null ? 'null' : typeof setting}`,
      { path: 'toolSearch' },
    );
  }
  // Objects are parsed with the object schema directly, so an error points at the key, not at the union.
  const parsed = typeof setting === 'boolean' ? toolSearchConfigSchema.safeParse(setting) : toolSearchConfigObjectSchema.safeParse(setting);
  if (!parsed.success) {
    const { message, path } = formatZodError(parsed.error, 'toolSearch');
    throw new GatewayAdapterError('invalid_config', `Invalid tools.toolSearch setting: ${message}`, { path, cause: parsed.error });
  }
  const input = typeof parsed.data === 'boolean' ? { enabled: parsed.data } : parsed.data;

  const maxSearchLimit = Math.min(input.maxSearchLimit ?? TOOL_SEARCH_DEFAULTS.maxSearchLimit, TOOL_SEARCH_DEFAULTS.searchLimitCeiling);
  const searchDefaultLimit = Math.min(input.searchDefaultLimit ?? TOOL_SEARCH_DEFAULTS.searchDefaultLimit, maxSearchLimit);
  const codeTimeoutMs = Math.min(
    Math.max(input.codeTimeoutMs ?? TOOL_SEARCH_DEFAULTS.codeTimeoutMs, TOOL_SEARCH_DEFAULTS.minCodeTimeoutMs),
    TOOL_SEARCH_DEFAULTS.maxCodeTimeoutMs,
  );
  const directory: ResolvedToolSearchConfig['directory'] = {};
  if (input.directory?.maxChars !== undefined) directory.maxChars = input.directory.maxChars;
  if (input.directory?.contextWindowTokens !== undefined) directory.contextWindowTokens = input.directory.contextWindowTokens;

  const base = { kind: 'resolved-tool-search-config' as const, codeTimeoutMs, searchDefaultLimit, maxSearchLimit, directory };

  const envMode = env['TOOL_SEARCH_MODE'];
  if (envMode !== undefined && envMode !== '') {
    if (!(ENV_MODES as readonly string[]).includes(envMode)) {
      throw new GatewayAdapterError(
        'invalid_config',
        `Invalid TOOL_SEARCH_MODE: received ${JSON.stringify(envMode.slice(0, 40))}, expected one of ${ENV_MODES.join(', ')}`,
        { path: 'env.TOOL_SEARCH_MODE' },
      );
    }
    if (envMode === 'off') return { ...base, mode: 'direct', directReason: 'disabled' };
    if (envMode === 'native') return { ...base, mode: 'direct', directReason: 'native' };
    return { ...base, mode: envMode as ToolSearchMode };
  }

  if (input.enabled === false) return { ...base, mode: 'direct', directReason: 'disabled' };
  if ('native' in input && input.native === true) return { ...base, mode: 'direct', directReason: 'native' };
  const mode = 'mode' in input && input.mode !== undefined ? input.mode : 'code';
  return { ...base, mode };
}

/** True for the output of `resolveToolSearchConfig` (so it can be passed again unchanged). */
export function isResolvedToolSearchConfig(value: unknown): value is ResolvedToolSearchConfig {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'resolved-tool-search-config';
}

import { DEFAULT_MAX_SEARCH_LIMIT, DEFAULT_SEARCH_LIMIT, resolveSearchLimits, SEARCH_LIMIT_CEILING } from '@tool-search/catalog';
import { SEARCH_MODES, type Mode } from '@tool-search/modes';
import { clampLimit, DEFAULT_LIMITS, LIMIT_BOUNDS } from '@tool-search/sandbox-runner';
import { GatewayAdapterError } from './errors.js';
import { formatZodError } from './shared/index.js';
import { toolSearchConfigObjectSchema, toolSearchConfigSchema } from './schemas.js';

/** A mode a config asks for: a rendered mode (the modes package's `Mode`), or `auto` (decided per session). */
export type ToolSearchMode = Mode | 'auto';

/** Why a session renders `direct`, when it does: off, a harness with its own tool search, or `auto` below its thresholds. */
export type DirectReason = 'disabled' | 'native' | 'auto';

/** When `auto` renders direct, and what it renders above that. */
export interface AutoModeConfig {
  maxTools: number;
  maxBytes: number;
  searchMode: Exclude<Mode, 'direct'>;
}

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
  /** The thresholds of `mode: 'auto'` (always resolved, used only in that mode). */
  auto: AutoModeConfig;
  /** `native` mode's choice of Anthropic search tool, and what it does on OpenAI Chat (with its bound). */
  nativeSearch: { anthropic: 'client' | 'bm25' | 'regex'; chat: 'tools' | 'load'; maxLoaded: number };
}

/** Most tools a native search loads on OpenAI Chat (`nativeSearch.chat: 'load'`) before the oldest is unloaded. */
export const DEFAULT_MAX_LOADED_CHAT_TOOLS = 32;

/**
 * Environment read by `resolveToolSearchConfig`: `TOOL_SEARCH_MODE` = off | harness | code | tools | directory |
 * native | auto (`harness`: the harness has its own tool search, render direct).
 */
export type ToolSearchEnv = Readonly<Record<string, string | undefined>>;

/**
 * Defaults and bounds (timeout 10 s clamped 1–60 s; limits 8 and 20, ceiling 50), read from the packages that
 * enforce them: the sandbox runner's timeout limit and the catalog's search limits. The clamps are theirs too.
 */
export const TOOL_SEARCH_DEFAULTS = Object.freeze({
  codeTimeoutMs: DEFAULT_LIMITS.timeoutMs,
  minCodeTimeoutMs: LIMIT_BOUNDS.timeoutMs[0],
  maxCodeTimeoutMs: LIMIT_BOUNDS.timeoutMs[1],
  searchDefaultLimit: DEFAULT_SEARCH_LIMIT,
  maxSearchLimit: DEFAULT_MAX_SEARCH_LIMIT,
  searchLimitCeiling: SEARCH_LIMIT_CEILING,
  autoMaxTools: 30,
  /** About 10,000 tokens of schemas (4 bytes a token), where Anthropic suggests tool search. */
  autoMaxBytes: 40_000,
  /** `auto` goes direct below 10% of the context window, as Claude Code's tool search does. */
  autoContextShare: 0.1,
});

const ENV_MODES = ['off', 'harness', ...SEARCH_MODES, 'auto'] as const;

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
    // The message and path say what was wrong; a raw ZodError never leaves the package.
    throw new GatewayAdapterError('invalid_config', `Invalid tools.toolSearch setting: ${message}`, { path });
  }
  const input = typeof parsed.data === 'boolean' ? { enabled: parsed.data } : parsed.data;

  const { searchDefaultLimit, maxSearchLimit } = resolveSearchLimits(input);
  const codeTimeoutMs = clampLimit('timeoutMs', input.codeTimeoutMs ?? TOOL_SEARCH_DEFAULTS.codeTimeoutMs);
  const contextWindowTokens = input.directory?.contextWindowTokens ?? ('contextWindowTokens' in input ? input.contextWindowTokens : undefined);
  const directory: ResolvedToolSearchConfig['directory'] = {};
  if (input.directory?.maxChars !== undefined) directory.maxChars = input.directory.maxChars;
  if (contextWindowTokens !== undefined) directory.contextWindowTokens = contextWindowTokens;
  const autoInput = 'auto' in input ? input.auto : undefined;
  const auto: AutoModeConfig = {
    maxTools: autoInput?.maxTools ?? TOOL_SEARCH_DEFAULTS.autoMaxTools,
    maxBytes:
      autoInput?.maxBytes ??
      (contextWindowTokens === undefined ? TOOL_SEARCH_DEFAULTS.autoMaxBytes : Math.floor(contextWindowTokens * TOOL_SEARCH_DEFAULTS.autoContextShare * 4)),
    searchMode: autoInput?.searchMode ?? 'code',
  };
  const nativeInput = 'nativeSearch' in input ? input.nativeSearch : undefined;
  const nativeSearch = { anthropic: nativeInput?.anthropic ?? 'client', chat: nativeInput?.chat ?? 'tools', maxLoaded: nativeInput?.maxLoaded ?? DEFAULT_MAX_LOADED_CHAT_TOOLS };

  const base = { kind: 'resolved-tool-search-config' as const, codeTimeoutMs, searchDefaultLimit, maxSearchLimit, directory, auto, nativeSearch };

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
    if (envMode === 'harness') return { ...base, mode: 'direct', directReason: 'native' };
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

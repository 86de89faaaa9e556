// The gateway's config: a JSON5 file with the provider, plugins by path, MCP servers, `tools.toolSearch`
// and the policy. Our own keys are strict; `tools.toolSearch`, the MCP servers and the policy are handed
// to the packages that own them, which validate them.
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import JSON5 from 'json5';
import { z } from 'zod';
import { E2eError } from './errors.js';

const providerSchema = z.strictObject({
  /**
   * The provider's base URL as its official client takes it: OpenAI-compatible, e.g. `http://127.0.0.1:1234/v1`;
   * Anthropic, without `/v1` (the client appends `/v1/messages`), e.g. `http://127.0.0.1:1234`.
   */
  baseURL: z.url(),
  /** Which wire format the gateway speaks to the provider: OpenAI Responses or Chat Completions, or Anthropic Messages. */
  api: z.enum(['responses', 'chat', 'anthropic']).default('responses'),
  model: z.string().min(1).default('mock-model'),
  /** Not a secret in the e2e setup: the mock provider ignores it. */
  apiKey: z.string().min(1).default('no-key'),
  stream: z.boolean().default(false),
});

const gatewayConfigSchema = z.strictObject({
  provider: providerSchema,
  /** Plugin module paths, relative to the config file. */
  plugins: z.array(z.string().min(1)).default([]),
  /** MCP servers, validated by the gateway adapter. */
  mcp: z.strictObject({ servers: z.array(z.unknown()).default([]) }).default({ servers: [] }),
  tools: z.strictObject({ toolSearch: z.unknown().optional() }).default({}),
  /** The policy config, validated by `@tool-search/policy`. */
  policy: z.unknown().optional(),
  /** Who is asking (the policy context) for every run of this gateway. */
  context: z.record(z.string(), z.union([z.string(), z.boolean()])).default({}),
  /** The sandbox runtime for code mode; default: the one `probeRuntime` finds. */
  sandbox: z.strictObject({ nodePath: z.string().min(1).optional() }).default({}),
  /** Where session logs go; relative to the config file. Default `state`. */
  stateDir: z.string().min(1).default('state'),
  agent: z.strictObject({ maxTurns: z.number().int().min(1).max(50).default(8) }).default({ maxTurns: 8 }),
});

/** The parsed gateway config, with paths made absolute. */
export type GatewayConfig = z.output<typeof gatewayConfigSchema>;

/** Provider settings of the gateway config. */
export type GatewayProviderConfig = GatewayConfig['provider'];

/**
 * Parses a gateway config value (already read from JSON5); relative paths resolve against `baseDir`.
 * Throws `E2eError('config_invalid')` naming the path of each problem.
 */
export function parseGatewayConfig(value: unknown, baseDir: string): GatewayConfig {
  const parsed = gatewayConfigSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new E2eError('config_invalid', `invalid gateway config: ${problems.join('; ')}`);
  }
  const absolute = (path: string): string => (isAbsolute(path) ? path : resolve(baseDir, path));
  return { ...parsed.data, plugins: parsed.data.plugins.map(absolute), stateDir: absolute(parsed.data.stateDir) };
}

/** Reads and parses a JSON5 gateway config file. */
export async function loadGatewayConfig(path: string): Promise<GatewayConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new E2eError('config_unreadable', `cannot read gateway config ${path}`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON5.parse(text);
  } catch (error) {
    throw new E2eError('config_invalid', `gateway config ${path} is not JSON5: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return parseGatewayConfig(value, dirname(path));
}

import { GatewayAdapterError } from '../errors.js';
import { formatZodError } from '../shared/index.js';
import { mcpServerConfigSchema, type McpServerConfig } from '../schemas.js';

/** Values for the variables a pasted config may refer to. Nothing is read from the process by itself. */
export interface ConvertMcpServersConfigOptions {
  /** `${env:NAME}`, `${NAME}` and `${NAME:-default}` (pass `process.env` explicitly to use it). */
  env?: Record<string, string | undefined>;
  /** VS Code `${input:id}` answers, by input id. */
  inputs?: Record<string, string>;
  /** Other named variables, e.g. `{ workspaceFolder: '/repo', userHome: '/home/me' }` for `${workspaceFolder}`. */
  variables?: Record<string, string>;
  /** Where the input came from, used as the root of error paths. Default: the top-level key (`mcpServers`, `servers`). */
  path?: string;
  /**
   * A field no client is known to use throws `invalid_config` naming its path instead of a warning (for a config
   * file of our own, where a typo such as `exlude` must fail loudly). Other clients' known fields still only warn.
   */
  strict?: boolean;
  /**
   * A server whose own entry cannot be used (a variable or VS Code input with no value, an `envFile`) is listed in
   * `failed` and left out, instead of throwing for the whole config: one server's problem stays that server's.
   */
  isolateServerProblems?: boolean;
}

/** A server left out because its entry could not be used (`isolateServerProblems`). */
export interface FailedMcpServerEntry {
  name: string;
  /** The path of the first field that could not be used, e.g. `mcpServers.github.env.GITHUB_TOKEN`. */
  path: string;
  /** What was wrong, in words. */
  reason: string;
  /** The variables it refers to that have no value (`GITHUB_TOKEN` of `${GITHUB_TOKEN}` or `${env:GITHUB_TOKEN}`). */
  unsetVariables: string[];
  /** The VS Code inputs it refers to that have no answer (`token` of `${input:token}`). */
  unansweredInputs: string[];
}

/** What `convertMcpServersConfig` produced. */
export interface ConvertedMcpServers {
  servers: McpServerConfig[];
  /** Entries left out on purpose (`disabled: true`), with why. */
  skipped: { name: string; reason: string }[];
  /** Fields of other clients that were ignored (`autoApprove`, `alwaysAllow`, …), each naming its path. */
  warnings: string[];
  /** Servers left out because their entry could not be used; empty unless `isolateServerProblems`. */
  failed: FailedMcpServerEntry[];
}

type Entry = Record<string, unknown>;

/** Keys of the standard entry shapes that map onto our config. */
const STDIO_KEYS = new Set(['command', 'args', 'env', 'cwd']);
const REMOTE_KEYS = new Set(['url', 'headers', 'oauth']);
/** Our own per-server options, accepted when a pasted entry carries them. */
const OWN_KEYS = new Set(['trusted', 'include', 'exclude', 'visible', 'timeoutMs', 'maxTotalTimeoutMs', 'maxResultBytes']);
/** Keys of other clients we knowingly ignore, each with why (approval lists are policy's job here; UI metadata is not config). */
const POLICY_INSTEAD = 'use policy for approvals and allow/deny lists';
const METADATA = "another client's metadata, not config";
const IGNORED_KEYS: ReadonlyMap<string, string> = new Map([
  ['autoApprove', POLICY_INSTEAD],
  ['alwaysAllow', POLICY_INSTEAD],
  ['disabledTools', POLICY_INSTEAD],
  ['timeout', "tool-search's own are timeoutMs, one call's timeout in milliseconds, and the top-level startupTimeoutMs"],
  ['description', METADATA],
  ['gallery', METADATA],
  ['version', METADATA],
  ['dev', METADATA],
  ['icon', METADATA],
]);

/** `type` values used by Claude Desktop/Code, Cursor, VS Code and Cline, mapped to our transports. */
const TRANSPORT_BY_TYPE: Record<string, McpServerConfig['transport']> = {
  stdio: 'stdio',
  http: 'http',
  'streamable-http': 'http',
  streamableHttp: 'http',
  'streamable_http': 'http',
  sse: 'sse',
};

const fail = (path: string, message: string): never => {
  throw new GatewayAdapterError('invalid_config', `${path}: ${message}`, { path });
};

/**
 * Converts the `mcpServers` map that Claude Desktop, Claude Code and Cursor use (`{ mcpServers: { name: { command,
 * args, env } | { url, headers } } }`, optional `type`) or VS Code's `mcp.json` (`{ servers, inputs }`, also under
 * `mcp` in settings) into our server configs. Variables (`${input:id}`, `${env:NAME}`, `${NAME:-default}`,
 * `${workspaceFolder}`) are resolved from the options; anything wrong throws `invalid_config` naming its path.
 */
export function convertMcpServersConfig(input: unknown, options: ConvertMcpServersConfigOptions = {}): ConvertedMcpServers {
  if (!isObject(input)) fail(options.path ?? 'config', `expected an object with "mcpServers" or "servers", got ${describe(input)}`);
  const root = input as Entry;
  const container = isObject(root['mcp']) && root['mcpServers'] === undefined && root['servers'] === undefined ? (root['mcp'] as Entry) : root;
  const key = container['mcpServers'] !== undefined ? 'mcpServers' : container['servers'] !== undefined ? 'servers' : undefined;
  const rootPath = options.path ?? (container === root ? key ?? 'config' : `mcp.${key ?? 'servers'}`);
  if (key === undefined) fail(options.path ?? 'config', 'expected "mcpServers" (Claude Desktop, Claude Code, Cursor) or "servers" (VS Code)');
  const map = container[key!];
  if (!isObject(map)) fail(rootPath, `expected an object of servers by name, got ${describe(map)}`);

  const result: ConvertedMcpServers = { servers: [], skipped: [], warnings: [], failed: [] };
  for (const [name, entry] of Object.entries(map as Entry)) {
    const path = `${rootPath}${/^[A-Za-z0-9_]+$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`}`;
    if (!isObject(entry)) fail(path, `expected an object, got ${describe(entry)}`);
    const server = entry as Entry;
    if (server['disabled'] === true) {
      result.skipped.push({ name, reason: `disabled in ${path}` });
      continue;
    }
    if (options.isolateServerProblems !== true) {
      result.servers.push(convertEntry(name, server, path, options, result.warnings, undefined)!);
      continue;
    }
    const unresolved: Unresolved[] = [];
    const entryWarnings: string[] = [];
    let converted: McpServerConfig | undefined;
    let problem: { path: string; reason: string } | undefined;
    if (server['envFile'] !== undefined) problem = { path: `${path}.envFile`, reason: ENV_FILE_UNSUPPORTED };
    else {
      converted = convertEntry(name, server, path, options, entryWarnings, unresolved);
      const first = unresolved[0];
      if (first !== undefined) problem = { path: first.where, reason: unresolved.map((item) => `${item.where} ${item.reason}`).join('; ') };
    }
    if (problem === undefined) {
      result.servers.push(converted!);
      result.warnings.push(...entryWarnings);
      continue;
    }
    result.failed.push({
      name,
      ...problem,
      unsetVariables: [...new Set(unresolved.flatMap((item) => (item.variable === undefined ? [] : [item.variable])))],
      unansweredInputs: [...new Set(unresolved.flatMap((item) => (item.input === undefined ? [] : [item.input])))],
    });
  }
  return result;
}

const ENV_FILE_UNSUPPORTED = 'envFile is not supported: put the variables in "env"';

/** A `${...}` with no value, collected instead of thrown when server problems are isolated. */
interface Unresolved {
  where: string;
  reason: string;
  variable?: string;
  input?: string;
}

function convertEntry(name: string, entry: Entry, path: string, options: ConvertMcpServersConfigOptions, warnings: string[], unresolved: Unresolved[] | undefined): McpServerConfig | undefined {
  const resolve = (value: string, where: string) => substituteVariables(value, where, options, unresolved);
  const typeKey = entry['type'] !== undefined ? 'type' : entry['transportType'] !== undefined ? 'transportType' : undefined;
  const rawType = typeKey === undefined ? undefined : entry[typeKey];
  if (rawType !== undefined && (typeof rawType !== 'string' || TRANSPORT_BY_TYPE[rawType] === undefined)) {
    fail(`${path}.${typeKey}`, `unknown server type ${JSON.stringify(rawType)}; expected one of ${Object.keys(TRANSPORT_BY_TYPE).join(', ')}`);
  }
  const transport = rawType !== undefined ? TRANSPORT_BY_TYPE[rawType as string]! : entry['command'] !== undefined ? 'stdio' : entry['url'] !== undefined ? 'http' : undefined;
  if (transport === undefined) fail(path, 'expected "command" (a local server) or "url" (a remote server)');
  if (entry['envFile'] !== undefined) fail(`${path}.envFile`, ENV_FILE_UNSUPPORTED);

  const config: Entry = { name, transport };
  const allowed = transport === 'stdio' ? STDIO_KEYS : REMOTE_KEYS;
  for (const [field, value] of Object.entries(entry)) {
    const where = `${path}.${field}`;
    if (field === typeKey || field === 'disabled') continue;
    if (OWN_KEYS.has(field)) config[field] = value;
    else if (allowed.has(field)) config[field] = convertField(field, value, where, resolve);
    else if (IGNORED_KEYS.has(field)) warnings.push(`${where} is ignored (${IGNORED_KEYS.get(field)!})`);
    else if (STDIO_KEYS.has(field) || REMOTE_KEYS.has(field)) fail(where, `not used by a ${transport} server`);
    else if (options.strict === true) fail(where, `unknown field "${field}"; expected ${[...allowed, ...OWN_KEYS, 'type', 'disabled'].join(', ')}`);
    else warnings.push(`${where} is not a known field and is ignored`);
  }
  // A value with an unset variable in it is not checked: the server is left out, for that reason alone.
  if (unresolved !== undefined && unresolved.length > 0) return undefined;
  const parsed = mcpServerConfigSchema.safeParse(config);
  if (!parsed.success) {
    const formatted = formatZodError(parsed.error, path);
    throw new GatewayAdapterError('invalid_config', `Invalid MCP server config: ${formatted.message}`, { path: formatted.path });
  }
  return parsed.data;
}

function convertField(field: string, value: unknown, where: string, resolve: (value: string, where: string) => string): unknown {
  switch (field) {
    case 'command':
    case 'cwd':
    case 'url':
      if (typeof value !== 'string') return fail(where, `expected a string, got ${describe(value)}`);
      return resolve(value, where);
    case 'args':
      if (!Array.isArray(value)) return fail(where, `expected an array of strings, got ${describe(value)}`);
      return value.map((item, index) => {
        // Numbers in args are common in pasted configs (`"--port", 3000`): they mean their text.
        if (typeof item === 'number' || typeof item === 'boolean') return String(item);
        if (typeof item !== 'string') return fail(`${where}[${index}]`, `expected a string, got ${describe(item)}`);
        return resolve(item, `${where}[${index}]`);
      });
    case 'env':
    case 'headers': {
      if (!isObject(value)) return fail(where, `expected an object of strings, got ${describe(value)}`);
      const out: Record<string, string> = {};
      for (const [name, inner] of Object.entries(value as Entry)) {
        const innerWhere = `${where}.${name}`;
        if (typeof inner === 'number' || typeof inner === 'boolean') out[name] = String(inner);
        else if (typeof inner === 'string') out[name] = resolve(inner, innerWhere);
        else fail(innerWhere, `expected a string, got ${describe(inner)}`);
      }
      return out;
    }
    case 'oauth':
      return convertOAuth(value, where, resolve);
    default:
      return value;
  }
}

/** `oauth` as VS Code (`{ clientId }`) and Claude Code (`{ clientId, callbackPort }`) write it. */
function convertOAuth(value: unknown, where: string, resolve: (value: string, where: string) => string): unknown {
  if (value === true) return true;
  if (!isObject(value)) return fail(where, `expected true or an object, got ${describe(value)}`);
  const out: Entry = {};
  for (const [field, inner] of Object.entries(value as Entry)) {
    if (field === 'callbackPort') {
      if (typeof inner !== 'number' || !Number.isInteger(inner)) fail(`${where}.callbackPort`, `expected a port number, got ${describe(inner)}`);
      out['redirectUrl'] = `http://localhost:${String(inner)}/callback`;
    } else if (typeof inner === 'string') out[field] = resolve(inner, `${where}.${field}`);
    else out[field] = inner;
  }
  return out;
}

const VARIABLE = /\$\{([^}]*)\}/g;

/**
 * Resolves `${input:id}`, `${env:NAME}`, `${NAME}`, `${NAME:-default}` and named variables; an unknown one throws,
 * or, given `unresolved`, is recorded there (and stands as an empty string).
 */
function substituteVariables(text: string, where: string, options: ConvertMcpServersConfigOptions, unresolved: Unresolved[] | undefined): string {
  return text.replace(VARIABLE, (_whole, body: string) => {
    if (body.startsWith('input:')) {
      const id = body.slice('input:'.length);
      const answer = options.inputs?.[id];
      if (answer !== undefined) return answer;
      if (unresolved !== undefined) {
        unresolved.push({ where, reason: `needs the VS Code input "${id}", which has no value`, input: id });
        return '';
      }
      return fail(where, `needs the VS Code input "${id}": pass its value in options.inputs`);
    }
    const [name, fallback] = body.startsWith('env:') ? [body.slice('env:'.length), undefined] : splitDefault(body);
    const variable = options.variables?.[name];
    if (variable !== undefined) return variable;
    const fromEnv = options.env?.[name];
    if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
    if (fallback !== undefined) return fallback;
    if (unresolved !== undefined) {
      unresolved.push({ where, reason: `refers to \${${body}}, which is not set`, variable: name });
      return '';
    }
    return fail(where, `refers to \${${body}}, which is not set (pass it in options.env or options.variables)`);
  });
}

function splitDefault(body: string): [string, string | undefined] {
  const index = body.indexOf(':-');
  return index === -1 ? [body, undefined] : [body.slice(0, index), body.slice(index + 2)];
}

function isObject(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string ${JSON.stringify(value.slice(0, 40))}` : typeof value;
}

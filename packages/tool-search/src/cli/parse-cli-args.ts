// The command line: `tool-search <command> [flags] [arguments]`. Flags are checked per command, so a flag a
// command does not take is a usage error naming it.
import { parseArgs } from 'node:util';
import { CliError } from './cli-error.js';

/** Every flag, with its type; `commands` lists who takes it (`*`: every command). */
export const FLAGS = {
  config: { type: 'string', commands: ['*'], help: 'FILE  the config file (default $TOOL_SEARCH_CONFIG or ~/.config/tool-search/config.json5)' },
  json: { type: 'boolean', commands: ['*'], help: 'print the result as JSON on stdout' },
  quiet: { type: 'boolean', commands: ['*'], help: 'no progress lines on stderr' },
  'log-level': { type: 'string', commands: ['*'], help: 'LEVEL  log lines on stderr: fatal, error (default), warn (default for serve), info, debug, silent' },
  help: { type: 'boolean', short: 'h', commands: ['*'], help: 'show help' },
  version: { type: 'boolean', short: 'v', commands: ['*'], help: 'show the version' },
  http: { type: 'string', commands: ['serve'], help: '[HOST:]PORT  serve Streamable HTTP at http://HOST:PORT/mcp (default host 127.0.0.1) instead of stdio' },
  mode: { type: 'string', commands: ['serve', 'search', 'list', 'init'], help: 'MODE  code, tools, directory, direct or auto (overrides toolSearch.mode)' },
  'allowed-host': { type: 'string', multiple: true, commands: ['serve'], help: 'NAME  a hostname clients use in Host (repeatable; needed when HOST is not loopback)' },
  'allowed-origin': { type: 'string', multiple: true, commands: ['serve'], help: 'ORIGIN  an Origin browsers may send (repeatable)' },
  'token-env': { type: 'string', commands: ['serve'], help: 'NAME  require "Authorization: Bearer $NAME" over HTTP (default: TOOL_SEARCH_TOKEN when set; required beyond loopback unless --no-auth)' },
  'no-auth': { type: 'boolean', commands: ['serve'], help: 'serve --http beyond loopback without a token: anyone who reaches it can call every tool (a warning says so)' },
  'metrics-token-env': { type: 'string', commands: ['serve'], help: 'NAME  /metrics takes "Authorization: Bearer $NAME", never the clients\' token (default: TOOL_SEARCH_METRICS_TOKEN when set; without one, /metrics answers on loopback only when no client token is set)' },
  store: { type: 'string', commands: ['serve'], help: 'URL  keep what replicas share (upstream OAuth tokens) in Redis, redis://HOST:PORT (default: files on this machine)' },
  limit: { type: 'string', commands: ['search'], help: 'N  hits to show (default 8)' },
  explain: { type: 'boolean', commands: ['search'], help: 'say why each hit ranks where it does (matched words, fields, paths), and why a weak search is weak' },
  from: { type: 'string', commands: ['init'], help: 'FILE  import mcpServers from a Claude Desktop, Claude Code, Cursor or VS Code config' },
  force: { type: 'boolean', commands: ['init'], help: 'overwrite an existing config file' },
  port: { type: 'string', commands: ['console'], help: 'PORT  the port of the console on 127.0.0.1 (default: any free port)' },
  'session-log': { type: 'string', multiple: true, commands: ['console', 'serve'], help: 'FILE|DIR  a session log (JSON lines), or a folder of them, whose events the activity view lists (repeatable); serve: DIR, where it writes one (default: the config\'s sessionLogDir)' },
} as const satisfies Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean; commands: readonly string[]; help: string }>;

export type FlagName = keyof typeof FLAGS;
export interface ParsedCommandLine {
  command: string | undefined;
  positionals: string[];
  flags: {
    config?: string;
    json?: boolean;
    quiet?: boolean;
    'log-level'?: string;
    help?: boolean;
    version?: boolean;
    http?: string;
    mode?: string;
    'allowed-host'?: string[];
    'allowed-origin'?: string[];
    'token-env'?: string;
    'no-auth'?: boolean;
    'metrics-token-env'?: string;
    store?: string;
    limit?: string;
    explain?: boolean;
    from?: string;
    force?: boolean;
    port?: string;
    'session-log'?: string[];
  };
}

/** Parses argv (without node and the script); throws `CliError('usage')` for an unknown flag or a missing value. */
export function parseCliArgs(argv: readonly string[]): ParsedCommandLine {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: Object.fromEntries(Object.entries(FLAGS).map(([name, flag]) => [name, { type: flag.type, ...('short' in flag ? { short: flag.short } : {}), ...('multiple' in flag ? { multiple: flag.multiple } : {}) }])),
    });
  } catch (error) {
    throw new CliError('usage', `${(error as Error).message.replace(/\. To specify a positional argument.*$/s, '')} (see tool-search --help)`);
  }
  const [command, ...positionals] = parsed.positionals;
  const flags = parsed.values as ParsedCommandLine['flags'];
  if (command !== undefined) {
    for (const name of Object.keys(flags) as FlagName[]) {
      const takers: readonly string[] = FLAGS[name].commands;
      if (!takers.includes('*') && !takers.includes(command)) throw new CliError('usage', `tool-search ${command} does not take --${name} (see tool-search ${command} --help)`);
    }
  }
  return { command, positionals, flags };
}

/** The flag help lines of one command. */
export function flagHelp(command: string): string[] {
  return (Object.entries(FLAGS) as Array<[FlagName, (typeof FLAGS)[FlagName]]>)
    .filter(([, flag]) => (flag.commands as readonly string[]).includes(command) || (flag.commands as readonly string[]).includes('*'))
    .map(([name, flag]) => `  --${name} ${flag.help}`);
}

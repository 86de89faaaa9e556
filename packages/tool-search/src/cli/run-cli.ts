// The `tool-search` command: parses the command line, runs one command from the table, and turns every error
// into a message on stderr and an exit status, here and nowhere else.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError, isCliError } from './cli-error.js';
import { createCliOutput, type CliIo } from './cli-io.js';
import type { Command, CommandContext } from './command.js';
import { EXIT_CODES, exitCodeFor } from './exit-codes.js';
import type { LoadedConfig } from './load-config.js';
import { flagHelp, parseCliArgs } from './parse-cli-args.js';

/** The commands, by name. */
export const COMMANDS: Readonly<Record<string, Command>> = Object.freeze({
  serve: {
    summary: 'serve tool search to an MCP client (stdio, or Streamable HTTP with --http)',
    usage: 'tool-search serve [--config FILE] [--http [HOST:]PORT [--token-env NAME | --no-auth] [--metrics-token-env NAME]] [--mode code|tools|directory|direct|auto] [--store redis://HOST:PORT] [--session-log DIR]',
    load: async () => (await import('./commands/serve.js')).runServe,
  },
  search: {
    summary: 'search the tools of your servers as the model would',
    usage: 'tool-search search "<query>" [--limit N] [--explain] [--config FILE] [--json]',
    load: async () => (await import('./commands/search.js')).runSearch,
  },
  list: {
    summary: 'list the tools the policy lets through, by server',
    usage: 'tool-search list [--config FILE] [--json]',
    load: async () => (await import('./commands/list.js')).runList,
  },
  doctor: {
    summary: 'check the config, which servers start, tool counts, surface bytes per mode, the code-mode runtime',
    usage: 'tool-search doctor [--config FILE] [--json]',
    load: async () => (await import('./commands/doctor.js')).runDoctor,
  },
  console: {
    summary: 'a local web page: servers, catalog, policy verdicts, searches with their explanation, activity, bytes per mode',
    usage: 'tool-search console [--config FILE] [--port PORT] [--session-log FILE]... [--json]',
    load: async () => (await import('./commands/console.js')).runConsole,
  },
  init: {
    summary: 'write a starter config (--from imports the mcpServers of a Claude Desktop, Claude Code, Cursor or VS Code config)',
    usage: 'tool-search init [--from FILE] [--config FILE] [--mode MODE] [--force]',
    load: async () => (await import('./commands/init.js')).runInit,
  },
});

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Runs `tool-search` with `argv` (no node, no script) and resolves with the exit status. Never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let json = false;
  try {
    const { command, positionals, flags } = parseCliArgs(argv);
    json = flags.json === true;
    const version = readVersion();
    if (flags.version === true) {
      io.stdout.write(`${version}\n`);
      return EXIT_CODES.ok;
    }
    if (command === undefined || command === 'help') {
      io.stdout.write(`${helpText(positionals[0])}\n`);
      return command === undefined && flags.help !== true ? EXIT_CODES.usage : EXIT_CODES.ok;
    }
    const selected = COMMANDS[command];
    if (selected === undefined) throw new CliError('usage', `unknown command "${command}"; expected one of ${Object.keys(COMMANDS).join(', ')} (see tool-search --help)`);
    if (flags.help === true) {
      io.stdout.write(`${helpText(command)}\n`);
      return EXIT_CODES.ok;
    }
    // Terminal commands report servers in their own lines; serve logs warnings (an MCP client shows stderr).
    const level = flags['log-level'] ?? (command === 'serve' ? 'warn' : 'error');
    if (!LOG_LEVELS.includes(level)) throw new CliError('usage', `--log-level ${level}: expected one of ${LOG_LEVELS.join(', ')}`);
    // The startup part of the gateway only: `serve` spawns its servers before it loads the rest.
    const [{ createRootLogger }, { defaultConfigPath, loadConfig }, { modeFlag }] = await Promise.all([import('@tool-search/gateway-adapter/startup'), import('./load-config.js'), import('./command.js')]);
    const configPath = flags.config === undefined ? defaultConfigPath(io.env) : resolve(io.cwd, flags.config);
    let loaded: LoadedConfig | undefined;
    const context: CommandContext = {
      io,
      output: createCliOutput(io, { json, quiet: flags.quiet === true }),
      flags,
      positionals,
      logger: createRootLogger({ level: level as NonNullable<NonNullable<Parameters<typeof createRootLogger>[0]>['level']>, destination: io.stderr }),
      configPath,
      config: () => (loaded ??= loadConfig(configPath, io.env)),
      version,
    };
    // A bad --mode is a usage error for every command that takes one, before anything starts.
    modeFlag(context);
    return await (await selected.load())(context);
  } catch (error) {
    const code = await exitCodeFor(error);
    const message = error instanceof Error ? error.message : String(error);
    if (json) io.stdout.write(`${JSON.stringify({ error: { code: isCliError(error) ? error.code : 'failure', message, exitCode: code } })}\n`);
    io.stderr.write(`tool-search: ${message}\n`);
    if (code === EXIT_CODES.failure && error instanceof Error && error.stack !== undefined) io.stderr.write(`${error.stack}\n`);
    return code;
  }
}

function helpText(command: string | undefined): string {
  const selected = command === undefined ? undefined : COMMANDS[command];
  if (selected !== undefined && command !== undefined) return [`${selected.usage}`, '', selected.summary, '', 'Flags:', ...flagHelp(command)].join('\n');
  return [
    'tool-search: tool search in front of your MCP servers.',
    '',
    'Usage: tool-search <command> [flags]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, entry]) => `  ${name.padEnd(8)} ${entry.summary}`),
    '',
    'Run tool-search <command> --help for its flags.',
    'Exit status: 0 ok, 1 unexpected failure, 2 usage, 3 config, 4 a server unavailable (doctor), 5 a file or port cannot be used.',
  ].join('\n');
}

/** The version of this package (from its package.json, found upwards from this file). */
function readVersion(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 5; depth += 1) {
    try {
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (manifest.name === 'tool-search') return manifest.version ?? '0.0.0';
    } catch {
      // not here; look one folder up
    }
    folder = dirname(folder);
  }
  return '0.0.0';
}

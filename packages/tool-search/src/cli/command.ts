// What every command gets: the parsed command line, its output, the logger, and the config (loaded on demand).
import { SEARCH_MODES } from '@tool-search/modes';
import type { Logger } from 'pino';
import type { CliIo, CliOutput } from './cli-io.js';
import { CliError } from './cli-error.js';
import type { LoadedConfig } from './load-config.js';
import type { ParsedCommandLine } from './parse-cli-args.js';

export interface CommandContext {
  io: CliIo;
  output: CliOutput;
  flags: ParsedCommandLine['flags'];
  positionals: string[];
  logger: Logger;
  /** The config file this command uses (given or default). */
  configPath: string;
  /** Loads and checks the config file (throws `CliError('config')`). */
  config(): LoadedConfig;
  version: string;
}

/** Runs a command: resolves with the exit status; expected problems throw `CliError`. */
export type CommandRun = (context: CommandContext) => Promise<number>;

/** One command of the table in `run-cli.ts`; its code is loaded only when it runs (help and --version stay fast). */
export interface Command {
  summary: string;
  usage: string;
  load(): Promise<CommandRun>;
}

/** The modes `--mode` takes: every mode but native (it needs a provider's own loading), and auto. */
export const CLI_MODES: readonly string[] = [...SEARCH_MODES.filter((mode) => mode !== 'native'), 'direct', 'auto'];

/** `--mode`, checked. */
export function modeFlag(context: CommandContext): string | undefined {
  const mode = context.flags.mode;
  if (mode !== undefined && !CLI_MODES.includes(mode)) throw new CliError('usage', `--mode ${mode} is not a mode; expected one of ${CLI_MODES.join(', ')}`);
  return mode;
}

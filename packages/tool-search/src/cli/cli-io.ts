// Where a command writes: results on stdout (human text, or JSON with --json), progress and warnings on stderr.
import type { Readable, Writable } from 'node:stream';

/** The streams and environment a command runs with (the real process's, or a test's). */
export interface CliIo {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** Writes command output: `result` to stdout, `progress` to stderr (unless quiet). */
export interface CliOutput {
  readonly json: boolean;
  /** One human-readable line (skipped with --json). */
  line(text?: string): void;
  /** The result for scripts (printed only with --json). */
  result(value: unknown): void;
  /** A progress or warning line on stderr. */
  progress(text: string): void;
}

export function createCliOutput(io: CliIo, options: { json: boolean; quiet: boolean }): CliOutput {
  return {
    json: options.json,
    line: (text = '') => {
      if (!options.json) io.stdout.write(`${text}\n`);
    },
    result: (value) => {
      if (options.json) io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    },
    progress: (text) => {
      if (!options.quiet) io.stderr.write(`${text}\n`);
    },
  };
}

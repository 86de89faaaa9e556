import pino, { type DestinationStream, type Level, type Logger } from 'pino';

/** Paths redacted from every log line: credentials, environments and tool arguments (never logged whole). */
export const DEFAULT_REDACT_PATHS: readonly string[] = Object.freeze([
  'apiKey',
  '*.apiKey',
  'token',
  '*.token',
  'password',
  '*.password',
  'secret',
  '*.secret',
  'authorization',
  '*.authorization',
  'headers',
  '*.headers',
  'env',
  '*.env',
  'args',
  '*.args',
]);

/** Options for `createRootLogger`. */
export interface RootLoggerOptions {
  /** Default `info`; `silent` turns logging off. */
  level?: Level | 'silent';
  /** Extra paths to redact, added to `DEFAULT_REDACT_PATHS`. */
  redact?: readonly string[];
  /** Where lines go; default stderr (fd 2), so stdout stays free for the host. */
  destination?: DestinationStream;
}

/**
 * The gateway's root logger: pino JSON lines, level and redaction configured here, `{ pkg }` bound.
 * Hand it (or a child) to `createToolSearchSession` and the other packages' factories.
 */
export function createRootLogger(options: RootLoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { pkg: 'tool-search' },
      redact: { paths: [...DEFAULT_REDACT_PATHS, ...(options.redact ?? [])], censor: '[redacted]' },
      hooks: { streamWrite: keepEachKeyOnce },
    },
    options.destination ?? pino.destination(2),
  );
}

/**
 * pino writes a child's bindings after its parent's, so a package's `{ pkg }` under the root's (or a component's
 * `{ component }` under another's) appears twice in one line, and a JSON parser keeps only the last. The line is
 * written with each key once, the innermost binding's value (the package that logged it).
 */
function keepEachKeyOnce(line: string): string {
  try {
    const parsed: unknown = JSON.parse(line);
    return `${JSON.stringify(parsed)}\n`;
  } catch {
    return line;
  }
}

// Every exit status of `tool-search`, and the one function that maps an error to one.
import { isCliError, type CliErrorCode } from './cli-error.js';

/** Exit statuses: 0 done; 1 an unexpected failure (a bug); the rest name what the user can fix. */
export const EXIT_CODES = Object.freeze({
  ok: 0,
  failure: 1,
  usage: 2,
  config: 3,
  unavailable: 4,
  io: 5,
} as const satisfies Record<'ok' | 'failure' | CliErrorCode, number>);

/** The exit status for an error that ended a command (the packages' guards are loaded only for their errors). */
export async function exitCodeFor(error: unknown): Promise<number> {
  if (isCliError(error)) return EXIT_CODES[error.code];
  const [{ isGatewayAdapterError }, { isPolicyError }] = await Promise.all([import('@tool-search/gateway-adapter'), import('@tool-search/policy')]);
  // Bad config handed to the packages (an invalid policy, tool-search setting or server entry) is a config error.
  if (isPolicyError(error) || (isGatewayAdapterError(error) && (error.code === 'invalid_config' || error.code === 'invalid_options'))) return EXIT_CODES.config;
  return EXIT_CODES.failure;
}

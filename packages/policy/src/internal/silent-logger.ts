import { pino, type Logger } from 'pino';

/** The default logger: a pino that writes nothing. */
export function createSilentLogger(): Logger {
  return pino({ level: 'silent' });
}

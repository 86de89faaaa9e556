// `tool-search console`: a local web page that shows what the gateway does with your servers: their state, the
// whole catalog, the policy's verdict on each tool, searches with their explanation, the activity of session
// logs, and each mode's bytes against direct. On 127.0.0.1, behind a token made for the run.
import { CliError } from '../cli-error.js';
import type { CommandRun } from '../command.js';
import { createConsoleData } from '../console/console-data.js';
import { serveConsole } from '../console/serve-console.js';
import { startHost } from '../start-host.js';

/** `tool-search console` (see its summary in `run-cli.ts`). */
export const runConsole: CommandRun = async (context) => {
  const port = context.flags.port === undefined ? 0 : Number(context.flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new CliError('usage', `--port ${context.flags.port}: expected a port number from 0 to 65535`);
  const config = context.config();
  const started = await startHost(config, { logger: context.logger, output: context.output, interactiveOAuth: false });
  try {
    await started.settled(config.startupTimeoutMs ?? 5_000);
    const data = await createConsoleData(started, config, context.flags['session-log'] ?? []);
    for (const problem of data.activity().problems) context.output.progress(`warning: ${problem}`);
    try {
      const running = await serveConsole(data, port);
      context.output.progress(`tool-search: console on ${running.url}`);
      context.output.result({ url: running.url, port: running.port });
      await new Promise<void>((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      });
      await running.close();
    } finally {
      await data.close();
    }
    return 0;
  } finally {
    await started.close();
  }
};

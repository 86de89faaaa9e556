// Runs the e2e gateway on its own: `tsx scripts/gateway.ts --config gateway.json5`. Prints the base URL,
// then serves until interrupted. Point any OpenAI client at it (`POST /v1/responses`).
import { parseArgs } from 'node:util';
import { createRootLogger } from '@tool-search/gateway-adapter';
import { startGateway } from '../src/index.js';
import { runMain } from './run-main.js';

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((arg) => arg !== '--'),
    options: { config: { type: 'string' }, verbose: { type: 'boolean', default: false } },
  });
  if (!values.config) {
    console.error('Usage: gateway --config <gateway.json5> [--verbose]');
    return 2;
  }
  // The gateway owns the root logger: level and secret redaction come from the adapter's preset (stderr).
  const logger = createRootLogger({ level: values.verbose ? 'debug' : 'info' });
  const gateway = await startGateway({ configPath: values.config, logger });
  console.log(`gateway listening: ${gateway.baseURL} (session logs under ${gateway.config.stateDir}/sessions)`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await gateway.close();
  return 0;
}

runMain(main);

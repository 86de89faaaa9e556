// `tool-search search "<query>"`: the search a model would run, on your own servers, from a terminal.
import { TOOL_SEARCH } from '@tool-search/modes';
import { CliError } from '../cli-error.js';
import type { CommandRun } from '../command.js';
import { firstLine, openCliSession } from '../open-session.js';
import { startHost } from '../start-host.js';

interface Hit {
  id: string;
  name: string;
  description: string;
  input: string;
  score: number;
}

/** `tool-search search` (see its summary in `run-cli.ts`). */
export const runSearch: CommandRun = async (context) => {
    const query = context.positionals.join(' ').trim();
    if (query === '') throw new CliError('usage', 'tool-search search needs a query, for example: tool-search search "read a file"');
    const limit = context.flags.limit === undefined ? undefined : Number(context.flags.limit);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new CliError('usage', `--limit ${context.flags.limit}: expected a whole number of at least 1`);
    const config = context.config();
    const started = await startHost(config, { logger: context.logger, output: context.output, interactiveOAuth: false });
    try {
      const toolSearch = { ...(typeof config.toolSearch === 'object' && config.toolSearch !== null ? config.toolSearch : {}), enabled: true, mode: 'tools' };
      const session = await openCliSession(started.host, config, toolSearch);
      await started.settled(0);
      const outcome = await session.execute({ name: TOOL_SEARCH, args: { query, ...(limit === undefined ? {} : { limit }) }, toolCallId: 'cli-search' });
      if (outcome.status !== 'ok') throw new CliError('usage', outcome.content);
      const hits = outcome.result as Hit[];
      context.output.result({ query, hits });
      if (hits.length === 0) context.output.line(`No tool matches "${query}".`);
      for (const [index, hit] of hits.entries()) {
        context.output.line(`${String(index + 1).padStart(2)}. ${hit.id}  (score ${hit.score.toFixed(2)})`);
        context.output.line(`    ${firstLine(hit.description)}`);
        context.output.line(`    ${hit.input}`);
      }
      await session.close();
      return 0;
    } finally {
      await started.close();
    }
};

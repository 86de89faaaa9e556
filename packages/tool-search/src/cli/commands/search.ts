// `tool-search search "<query>"`: the search a model would run, on your own servers, from a terminal.
import type { SearchExplanation, ServerMap } from '@tool-search/catalog';
import { TOOL_SEARCH } from '@tool-search/modes';
import { CliError } from '../cli-error.js';
import type { CommandRun } from '../command.js';
import { describeMiss, explainMiss, type MissFacts } from '../explain-miss.js';
import { explanationForPeople, queryForDisplay, typedWordsOf } from '../explanation-for-people.js';
import { firstLine, openCliSession } from '../open-session.js';
import { approvalReasonOf, unansweredApprovals } from '../policy-refusals.js';
import { startHost } from '../start-host.js';

interface Hit {
  id: string;
  name: string;
  description: string;
  input: string;
  score: number;
}

interface WeakAnswer {
  evidence: 'weak';
  /** The first guesses, by id only. */
  hits: Array<{ id: string; score?: undefined }>;
  servers: ServerMap;
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
      if (context.flags.explain === true) {
        // For the person asking: refused tools that match are counted (through a session that sees everything), never named.
        const everything = await started.host.openSession({ config: false, policy: {}, context: config.context, sessionId: 'cli-explain-all' });
        const miss = explainMiss(started.host, everything, session, query, { policy: config.policy, context: config.context });
        const explanation = session.explain(query, limit === undefined ? {} : { limit });
        const approvals = explanation.hits.flatMap((hit) => {
          const tool = session.tool(hit.id);
          const reason = tool === undefined ? undefined : approvalReasonOf(tool, config.policy, config.context);
          return reason === undefined ? [] : [{ id: hit.id, reason: `${reason}${unansweredApprovals(config)}` }];
        });
        printExplanation(context, explanation, explanationForPeople(explanation, typedWordsOf(session, query)), miss, approvals);
        await Promise.all([everything.close(), session.close()]);
        return 0;
      }
      const outcome = await session.execute({ name: TOOL_SEARCH, args: { query, ...(limit === undefined ? {} : { limit }) }, toolCallId: 'cli-search' });
      if (outcome.status !== 'ok') throw new CliError('usage', outcome.content);
      // Strong evidence answers with the hits; weak evidence with the hits as guesses and the server map.
      const answer = outcome.result as Hit[] | WeakAnswer;
      const hits: Array<Hit | WeakAnswer['hits'][number]> = Array.isArray(answer) ? answer : answer.hits;
      const servers = Array.isArray(answer) ? undefined : answer.servers;
      const shown = queryForDisplay(query);
      context.output.result({ query: shown, ...(shown === query ? {} : { queryLength: query.length }), hits, ...(servers === undefined ? {} : { evidence: 'weak', servers }) });
      if (servers !== undefined) context.output.line(hits.length === 0 ? `No tool matches "${shown}". The servers you can use:` : `No tool clearly matches "${shown}"; best guesses first, then the servers you can use.`);
      for (const [index, hit] of hits.entries()) {
        if (hit.score === undefined) {
          context.output.line(`${String(index + 1).padStart(2)}. ${hit.id}`);
          continue;
        }
        context.output.line(`${String(index + 1).padStart(2)}. ${hit.id}  (score ${hit.score.toFixed(2)})`);
        context.output.line(`    ${firstLine(hit.description)}`);
        context.output.line(`    ${hit.input}`);
      }
      for (const server of servers?.servers ?? []) {
        if (server.state === 'starting') {
          context.output.line(`- ${server.owner}: starting (its tools are not listed yet; try again in a moment)`);
          continue;
        }
        const more = server.toolCount - server.tools.length;
        context.output.line(`- ${server.owner}: ${server.summary}`);
        context.output.line(`    ${server.tools.join(', ')}${more > 0 ? ` (+${more} more)` : ''}`);
      }
      await session.close();
      return 0;
    } finally {
      await started.close();
    }
};

/** A hit of `search --explain` a `requireApproval` rule matches, and why (the policy's words, `approvalReason`). */
interface ApprovalNeeded {
  id: string;
  reason: string;
}

/**
 * `search --explain`: each hit with the words that matched it (their path, fields and share of the score), printed
 * as the person typed them (`forPeople`), and, for a hit a call to which needs approval, why; `--json` gives the
 * catalog's own explanation (index terms, field names) with `approvals`.
 */
function printExplanation(context: Parameters<CommandRun>[0], raw: SearchExplanation, explanation: SearchExplanation, miss: MissFacts, approvals: ApprovalNeeded[]): void {
  const shown = queryForDisplay(raw.query);
  context.output.result({ ...raw, query: shown, ...(shown === raw.query ? {} : { queryLength: raw.query.length }), ...miss, ...(approvals.length === 0 ? {} : { approvals }) });
  const words = explanation.words.map((word) => `${word.term}${word.found ? '' : ' (no tool has it)'}${word.implied ? ' (implied)' : ''}`).join(', ');
  context.output.line(`Query words: ${words || '(none)'}`);
  context.output.line(`Evidence: ${explanation.evidence} (coverage ${explanation.coverage}, strength ${explanation.strength}; weak below ${explanation.thresholds.coverage} and ${explanation.thresholds.strength})`);
  if (explanation.why !== undefined) context.output.line(`Why: ${explanation.why}`);
  for (const line of describeMiss(miss)) context.output.line(`Also: ${line}`);
  for (const [index, hit] of explanation.hits.entries()) {
    const factors = [hit.exactMatch ? 'its exact id or name: first' : '', hit.facet !== 1 ? `annotations ×${hit.facet}` : '', hit.naming !== 1 ? `name and server ×${Math.round(hit.naming * 1000) / 1000}` : '', hit.diversification < 1 ? `diversified ×${hit.diversification}` : ''].filter(Boolean).join(', ');
    context.output.line(`${String(index + 1).padStart(2)}. ${hit.id}  (score ${hit.score.toFixed(2)}${factors === '' ? '' : `; ${factors}`})`);
    const approval = approvals.find((entry) => entry.id === hit.id);
    if (approval !== undefined) context.output.line(`    a call to it needs approval: ${approval.reason}`);
    for (const match of hit.matches) {
      const where = match.fields.length > 0 ? ` in ${match.fields.join(', ')}` : '';
      context.output.line(`    ${(match.share * 100).toFixed(0).padStart(3)}%  ${match.term} (${match.path})${where}`);
    }
  }
}

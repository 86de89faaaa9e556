// What the console shows, read from a running host: its servers, the whole catalog, the policy's verdict on
// every tool (and the rule that decided), searches with their explanation as the model would get them, the
// activity of session logs, and the bytes of each mode's surface against direct.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionLog, ToolSearchSession } from '@tool-search/gateway-adapter';
import { TOOL_SEARCH } from '@tool-search/modes';
import type { Policy, PolicyContext, PolicyTool } from '@tool-search/policy';
import { z } from 'zod';
import { describeMiss, explainMiss } from '../explain-miss.js';
import { explanationForPeople, typedWordsOf } from '../explanation-for-people.js';
import type { LoadedConfig } from '../load-config.js';
import { approvalReason, policyToolOf } from '../policy-refusals.js';
import { measureMcpSurface, SURFACE_MODES } from '../measure-mcp-surface.js';
import type { StartedHost } from '../start-host.js';
import type { Activity, ActivityLine, ConsoleCatalogTool, ConsolePolicyRow, ConsoleSearch, ConsoleServerMapEntry, ConsoleServers, ConsoleSurface } from './console-api.js';

export type { Activity, ActivityLine } from './console-api.js';

/** The console's data, one method per API route; each answer's type is the one the page script reads. */
export interface ConsoleData {
  servers(): ConsoleServers;
  catalog(): ConsoleCatalogTool[];
  policy(): ConsolePolicyRow[];
  search(query: string, limit: number | undefined): Promise<ConsoleSearch>;
  activity(): Activity;
  bytes(): Promise<ConsoleSurface[]>;
  close(): Promise<void>;
}

/** The server map in a `tool_search` answer (a weak search's `servers`), as far as the console shows it. */
const ANSWER_WITH_SERVER_MAP = z.object({
  servers: z.object({ servers: z.array(z.object({ owner: z.string(), summary: z.string(), tools: z.array(z.string()), state: z.literal('starting').optional() })) }),
});

/** The servers of the map the model's `tool_search` answer holds, or undefined when it holds none. */
export function serverMapOf(answer: unknown): ConsoleServerMapEntry[] | undefined {
  const parsed = ANSWER_WITH_SERVER_MAP.safeParse(answer);
  return parsed.success ? parsed.data.servers.servers.map(({ owner, summary, tools, state }) => ({ owner, summary, tools, ...(state === undefined ? {} : { state }) })) : undefined;
}

/**
 * One row of the policy view: the verdict on `tool` (the rule that refused it), and for a tool the policy admits,
 * what puts a call to it before an approval, in the policy's words (`approvalReason`: the rule, its layer and the
 * note on annotations the tool does not state), as `doctor` and the approval question say it.
 */
export function policyRowOf(tool: PolicyTool, admitted: boolean, policy: Policy, context: PolicyContext): ConsolePolicyRow {
  const verdict = policy.check(tool, context);
  if (!verdict.allowed) return { id: tool.id, admitted, by: verdict.by, layer: verdict.layer, rule: verdict.rule, reason: verdict.reason };
  const requirement = policy.approvalRequirement(tool, context);
  return { id: tool.id, admitted, ...(requirement === undefined ? {} : { approval: approvalReason(requirement) }) };
}

/** Most activity lines kept from the console's own session (oldest dropped first). */
const MAX_OWN_LINES = 5_000;

/**
 * Opens the console's sessions on `started`: one that sees everything (the catalog and policy views list refused
 * tools too: the console is for people, never for a model), and one under the config's policy for searches.
 */
export async function createConsoleData(started: StartedHost, config: LoadedConfig, sessionLogs: readonly string[]): Promise<ConsoleData> {
  const own: ActivityLine[] = [];
  const log: SessionLog = {
    write: (event, fields) => {
      own.push({ time: Date.now(), sessionId: 'console', event, ...fields });
      if (own.length > MAX_OWN_LINES) own.shift();
    },
    flush: () => undefined,
  };
  const toolSearch = { ...(typeof config.toolSearch === 'object' && config.toolSearch !== null ? config.toolSearch : {}), enabled: true, mode: 'tools' };
  const base = { context: config.context, visible: config.visible };
  const everything = await started.host.openSession({ config: false, policy: {}, ...base, sessionId: 'console-catalog' });
  const admitted = await started.host.openSession({ config: false, policy: config.policy, ...base, sessionId: 'console-policy' });
  const searching = await started.host.openSession({ config: toolSearch, policy: config.policy, ...base, sessionId: 'console', sessionLog: log });
  const { policy } = config;
  let measured: Promise<ConsoleSurface[]> | undefined;

  const catalogIds = (session: ToolSearchSession) => session.modelSurface().tools.flatMap((tool) => (tool.id === undefined ? [] : [tool.id])).sort();
  return {
    servers: () => {
      const status = started.host.status();
      // Servers the config could not start as written are shown with the others, with what to do.
      const notStarted = config.failedServers.map((server) => ({ name: server.name, state: 'not_started', tools: 0, restarts: 0, reason: server.reason }));
      return { ...status, servers: [...status.servers, ...notStarted] };
    },
    catalog: () =>
      catalogIds(everything).map((id) => {
        const tool = everything.tool(id);
        return { id, title: tool?.title, description: tool?.description ?? '', inputSchema: tool?.inputSchema, annotations: tool?.annotations, trusted: tool?.trusted ?? false };
      }),
    policy: () =>
      catalogIds(everything).map((id) => {
        const tool = everything.tool(id);
        const shown = admitted.tool(id) !== undefined;
        if (tool === undefined) return { id, admitted: shown };
        return policyRowOf(policyToolOf(tool), shown, policy, config.context ?? {});
      }),
    async search(query, limit) {
      const outcome = await searching.execute({ name: TOOL_SEARCH, args: { query, ...(limit === undefined ? {} : { limit }) }, toolCallId: `console-${own.length}` });
      // The console is for people: the words as typed and the fields in plain words.
      const explanation = explanationForPeople(searching.explain(query, limit === undefined ? {} : { limit }), typedWordsOf(searching, query));
      const also = describeMiss(explainMiss(started.host, everything, searching, query, { policy, context: config.context }));
      if (outcome.status !== 'ok') return { query, explanation, also, error: outcome.content };
      const serverMap = serverMapOf(outcome.result);
      return { query, explanation, also, ...(serverMap === undefined ? {} : { serverMap }) };
    },
    activity: () => {
      const read = sessionLogs.map(readSessionLogs);
      return { lines: [...read.flatMap((file) => file.lines), ...own].sort((a, b) => a.time - b.time), problems: read.flatMap((file) => file.problems) };
    },
    bytes: () =>
      (measured ??= (async () => {
        const surfaces: ConsoleSurface[] = [];
        for (const { mode, setting } of SURFACE_MODES) surfaces.push({ requested: mode, ...(await measureMcpSurface(started.host, config, setting === false ? false : { ...toolSearch, ...setting })) });
        return surfaces;
      })()),
    async close() {
      await Promise.all([everything.close(), admitted.close(), searching.close()]);
    },
  };
}

/** A session-log file, or each file in a folder of them (`serve --session-log DIR` writes one per session). */
export function readSessionLogs(path: string): Activity {
  let files: string[];
  try {
    files = statSync(path).isDirectory() ? readdirSync(path).sort().map((name) => join(path, name)).filter((file) => statSync(file).isFile()) : [path];
  } catch {
    files = [path];
  }
  const read = files.map(readSessionLog);
  return { lines: read.flatMap((file) => file.lines), problems: read.flatMap((file) => file.problems) };
}

/**
 * The lines of a session-log file as the gateway writes them (pino JSON lines, `time` an ISO string; a number of
 * milliseconds is read too), and a problem when the file is missing or unreadable or some lines are not such lines.
 */
export function readSessionLog(path: string): Activity {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { lines: [], problems: [code === 'ENOENT' ? `session log ${path} does not exist` : `session log ${path} cannot be read (${code ?? (error as Error).message})`] };
  }
  let unread = 0;
  const lines = text.split('\n').flatMap((line): ActivityLine[] => {
    if (line.trim() === '') return [];
    try {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      const time = typeof parsed['time'] === 'number' ? parsed['time'] : typeof parsed['time'] === 'string' ? Date.parse(parsed['time']) : Number.NaN;
      if (typeof parsed['event'] === 'string' && Number.isFinite(time)) return [{ ...parsed, time } as ActivityLine];
    } catch {
      // counted below
    }
    unread += 1;
    return [];
  });
  const problems = unread === 0 ? [] : [`session log ${path}: ${unread} line${unread === 1 ? ' is' : 's are'} not session-log lines (JSON with "event" and "time") and ${unread === 1 ? 'is' : 'are'} not shown`];
  return { lines, problems };
}

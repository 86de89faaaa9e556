// What the console shows, read from a running host: its servers, the whole catalog, the policy's verdict on
// every tool (and the rule that decided), searches with their explanation as the model would get them, the
// activity of session logs, and the bytes of each mode's surface against direct.
import { readFileSync } from 'node:fs';
import type { SearchExplanation } from '@tool-search/catalog';
import type { SessionLog, ToolSearchSession } from '@tool-search/gateway-adapter';
import { TOOL_SEARCH } from '@tool-search/modes';
import type { PolicyVerdict } from '@tool-search/policy';
import { describeMiss, explainMiss } from '../explain-miss.js';
import type { LoadedConfig } from '../load-config.js';
import { measureMcpSurface, SURFACE_MODES, type McpSurfaceMeasure } from '../measure-mcp-surface.js';
import type { StartedHost } from '../start-host.js';

/** One line of a session log, as the activity view lists it. */
export type ActivityLine = { time: number; sessionId: string; event: string } & Record<string, unknown>;

export interface ConsoleData {
  servers(): unknown;
  catalog(): unknown;
  policy(): unknown;
  search(query: string, limit: number | undefined): Promise<{ query: string; answer: unknown; explanation: SearchExplanation; also: string[] }>;
  activity(): ActivityLine[];
  bytes(): Promise<Array<McpSurfaceMeasure & { requested: string }>>;
  close(): Promise<void>;
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
  let measured: Promise<Array<McpSurfaceMeasure & { requested: string }>> | undefined;

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
        const verdict: PolicyVerdict | undefined =
          tool === undefined
            ? undefined
            : policy.check({ id, name: tool.name, source: tool.source, owner: tool.owner, ownerOnly: false, trusted: tool.trusted, ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }) }, config.context ?? {});
        return { id, admitted: admitted.tool(id) !== undefined, ...(verdict === undefined || verdict.allowed ? {} : { by: verdict.by, layer: verdict.layer, rule: verdict.rule, reason: verdict.reason }) };
      }),
    async search(query, limit) {
      const outcome = await searching.execute({ name: TOOL_SEARCH, args: { query, ...(limit === undefined ? {} : { limit }) }, toolCallId: `console-${own.length}` });
      const explanation = searching.explain(query, limit === undefined ? {} : { limit });
      return { query, answer: outcome.status === 'ok' ? outcome.result : { error: outcome.content }, explanation, also: describeMiss(explainMiss(started.host, everything, searching, query)) };
    },
    activity: () => [...sessionLogs.flatMap(readSessionLog), ...own].sort((a, b) => a.time - b.time),
    bytes: () =>
      (measured ??= (async () => {
        const surfaces: Array<McpSurfaceMeasure & { requested: string }> = [];
        for (const { mode, setting } of SURFACE_MODES) surfaces.push({ requested: mode, ...(await measureMcpSurface(started.host, config, setting === false ? false : { ...toolSearch, ...setting })) });
        return surfaces;
      })()),
    async close() {
      await Promise.all([everything.close(), admitted.close(), searching.close()]);
    },
  };
}

/** The lines of a session-log file (pino JSON lines); a line that is not one is skipped. */
function readSessionLog(path: string): ActivityLine[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').flatMap((line) => {
    if (line.trim() === '') return [];
    try {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      return typeof parsed['event'] === 'string' && typeof parsed['time'] === 'number' ? [parsed as ActivityLine] : [];
    } catch {
      return [];
    }
  });
}

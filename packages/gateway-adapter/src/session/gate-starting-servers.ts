// A control tool that names an MCP server still making its first connection (a call or a describe of one of its
// ids, a search within it or for one of its ids) waits a bounded time for that server, then goes on as usual when
// it is ready, or says it is starting. Without this a session opened while a slow server connects would answer
// "unknown tool" for a tool that exists, only not yet.
import { parseToolId } from '@tool-search/catalog';
import { TOOL_CALL, TOOL_DESCRIBE, TOOL_SEARCH } from '@tool-search/modes';
import type { PolicyTool } from '@tool-search/policy';
import type { ControlRoute } from './control-routes.js';
import { errorOutcome } from './error-outcome.js';

/** What the gate reads of the host and the session. */
export interface StartingServers {
  /** The first connection attempt of `server` while it is still under way; undefined once it settled (or unknown). */
  starting(server: string): Promise<void> | undefined;
  /** How long a control tool waits for such a server. */
  waitMs: number;
  /** The session's policy: a server it may see nothing of is never waited for (nor named). */
  admits(tool: PolicyTool): boolean;
}

/** `routes` with the search, describe and call routes waiting for the MCP server they name while it starts. */
export function gateStartingServers(routes: ReadonlyMap<string, ControlRoute>, servers: StartingServers): ReadonlyMap<string, ControlRoute> {
  const gated = new Map(routes);
  for (const name of [TOOL_SEARCH, TOOL_DESCRIBE, TOOL_CALL]) {
    const route = routes.get(name);
    if (route === undefined) continue;
    gated.set(name, {
      kind: route.kind,
      async handle(args, start, call) {
        const target = targetOf(name, args);
        const first = target === undefined ? undefined : servers.starting(target.server);
        if (target !== undefined && first !== undefined && servers.admits({ id: target.id, name: target.id.slice(`mcp:${target.server}:`.length), source: 'mcp', owner: target.server, ownerOnly: false })) {
          await settledWithin(first, servers.waitMs, call.signal);
          if (servers.starting(target.server) !== undefined) {
            return errorOutcome(start, 'unavailable', { kind: 'server_starting', server: target.server, waitedMs: servers.waitMs });
          }
        }
        return route.handle(args, start, call);
      },
    });
  }
  return gated;
}

/** The MCP server a control tool's arguments name, with the id the policy is asked about. */
function targetOf(name: string, args: Record<string, unknown>): { server: string; id: string } | undefined {
  const byId = (value: unknown) => {
    const parsed = typeof value === 'string' ? parseToolId(value) : undefined;
    return parsed?.source === 'mcp' ? { server: parsed.owner, id: value as string } : undefined;
  };
  if (name !== TOOL_SEARCH) return byId(args['id']);
  const server = typeof args['server'] === 'string' ? args['server'].replace(/^mcp:/, '') : undefined;
  // A search within a server is asked about as a tool named `*` of it: a policy that allows only some of its tools
  // by pattern does not see the server named while it starts (it sees it once its tools are listed).
  if (server !== undefined && server !== '' && !server.includes(':')) return { server, id: `mcp:${server}:*` };
  return byId(args['query']);
}

/** Resolves when `promise` settles, `ms` pass or `signal` aborts, whichever is first. */
function settledWithin(promise: Promise<void>, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
    promise.then(done, done);
  });
}

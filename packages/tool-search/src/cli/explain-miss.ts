// What a person (never a model) is told besides a search's own explanation: how many tools the policy refuses
// would have matched the query (counted, never named), and which servers are not ready, so their tools could
// not be found. The counting session sees the whole catalog; its hits are compared with what the policy admits.
import type { ToolSearchHost, ToolSearchSession } from '@tool-search/gateway-adapter';
import type { Policy, PolicyContext } from '@tool-search/policy';
import { reasonWithoutTool } from './policy-refusals.js';

/** The facts behind a miss that the session's own explanation cannot give. */
export interface MissFacts {
  /** Tools among the whole catalog's best matches for the query that the policy refuses (not named). */
  refusedMatches: number;
  /**
   * Why they are refused, in the policy's words (distinct), for the rules that name no tool: hint rules (with the
   * spec default they read when a tool states no annotations) and groups. A rule naming a tool would name it.
   */
  refusedBecause: string[];
  /** Configured servers that are not ready, with why. */
  serversDown: Array<{ name: string; state: string; reason?: string | undefined }>;
}

/** How many of the whole catalog's hits are looked at for refused matches. */
const LOOKED_AT = 20;

/** Counts the refused tools `query` matches (through `everything`, checked against `admitted`) and lists the servers down. */
export function explainMiss(
  host: ToolSearchHost,
  everything: ToolSearchSession,
  admitted: ToolSearchSession,
  query: string,
  policy?: { policy: Policy; context: PolicyContext },
): MissFacts {
  const hits = query.trim() === '' ? [] : everything.search(query, { limit: LOOKED_AT });
  const refused = hits.filter((hit) => admitted.tool(hit.id) === undefined);
  const refusedBecause = new Set<string>();
  for (const hit of policy === undefined ? [] : refused) {
    const tool = everything.tool(hit.id);
    if (tool === undefined) continue;
    const verdict = policy!.policy.check(
      { id: tool.id, name: tool.name, source: tool.source, owner: tool.owner, ownerOnly: false, trusted: tool.trusted, ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }) },
      policy!.context,
    );
    if (!verdict.allowed && /^(deny|allow):(hint|group):/.test(verdict.rule)) refusedBecause.add(reasonWithoutTool(verdict.reason));
  }
  return {
    refusedMatches: refused.length,
    refusedBecause: [...refusedBecause],
    serversDown: host.status().servers.filter((server) => server.state !== 'ready').map(({ name, state, reason }) => ({ name, state, reason })),
  };
}

/** The lines `search --explain` and the console print for `facts` (none when there is nothing to say). */
export function describeMiss(facts: MissFacts): string[] {
  const lines: string[] = [];
  if (facts.refusedMatches > 0) {
    const because = facts.refusedBecause.length === 0 ? '' : `: ${facts.refusedBecause.slice(0, 3).join('; ')}`;
    lines.push(`${facts.refusedMatches} tool${facts.refusedMatches === 1 ? '' : 's'} the policy refuses match${facts.refusedMatches === 1 ? 'es' : ''} these words (not named here; see the policy)${because}.`);
  }
  for (const server of facts.serversDown) lines.push(`Server ${server.name} is ${server.state}${server.reason === undefined ? '' : `: ${server.reason}`}; its tools could not be found.`);
  return lines;
}

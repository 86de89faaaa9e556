// The namespaces of native mode: one per owner (a plugin, an MCP server, OpenClaw core), as OpenAI recommends
// for deferred tools. Names fit the provider name rule and never equal a declared function name (the model
// calls `{ namespace, name }`, and the Responses API reserves a function's own name as its namespace).
// Descriptions are generated from trusted facts only (source, owner, the tools' model names), never from
// tool descriptions, so untrusted text stays out of what the model reads before any search.
import type { ToolSource } from '@tool-search/catalog';
import type { ToolNamespace } from '../types.js';
import { toSafeName } from './assign-model-names.js';
import { compareStrings, shortHash, utf8Length } from './text.js';

/** A deferred tool to group: its owner and the name the model calls. */
export interface NamespaceMember {
  id: string;
  source: ToolSource;
  owner: string;
  modelName: string;
}

const SOURCE_LABELS: Record<ToolSource, string> = {
  openclaw: 'OpenClaw tools',
  plugin: 'Plugin',
  mcp: 'MCP server',
  client: 'Client tools',
};

/** Longest generated namespace description, in UTF-8 bytes (OpenAI asks for short, high-level ones). */
export const MAX_NAMESPACE_DESCRIPTION_BYTES = 320;

function describeNamespace(source: ToolSource, owner: string, modelNames: readonly string[]): string {
  const sorted = [...modelNames].sort(compareStrings);
  const head = `${SOURCE_LABELS[source]} "${owner}", ${sorted.length === 1 ? '1 tool' : `${sorted.length} tools`}: `;
  // Names as long as they fit, then "and N more"; the first name is always listed.
  let listed = sorted.length;
  const text = (count: number) => {
    const rest = sorted.length - count;
    return `${head}${sorted.slice(0, count).join(', ')}${rest > 0 ? `, and ${rest} more` : ''}.`;
  };
  while (listed > 1 && utf8Length(text(listed)) > MAX_NAMESPACE_DESCRIPTION_BYTES) listed -= 1;
  return text(listed);
}

/**
 * Assigns every member its namespace, deterministically (independent of input order). `taken` holds the
 * names that a namespace may not use (every declared function and control tool name). An owner's safe name
 * is used as is when it is free; owners of different sources sharing it are qualified with their source.
 */
export function assignNamespaces(members: readonly NamespaceMember[], taken: ReadonlySet<string>): Map<string, ToolNamespace> {
  const groups = new Map<string, { source: ToolSource; owner: string; members: NamespaceMember[] }>();
  for (const member of members) {
    const key = `${member.source}:${member.owner}`;
    const group = groups.get(key);
    if (group) group.members.push(member);
    else groups.set(key, { source: member.source, owner: member.owner, members: [member] });
  }
  const keys = [...groups.keys()].sort(compareStrings);
  const baseCounts = new Map<string, number>();
  for (const key of keys) {
    const base = toSafeName((groups.get(key) as { owner: string }).owner);
    baseCounts.set(base, (baseCounts.get(base) ?? 0) + 1);
  }
  const used = new Set(taken);
  const byId = new Map<string, ToolNamespace>();
  for (const key of keys) {
    const group = groups.get(key) as { source: ToolSource; owner: string; members: NamespaceMember[] };
    const base = toSafeName(group.owner);
    let name = (baseCounts.get(base) ?? 0) > 1 ? toSafeName(`${group.source}_${group.owner}`) : base;
    if (used.has(name)) name = toSafeName(`${name}_tools`);
    for (let counter = 1; used.has(name); counter += 1) name = toSafeName(`${base}_${shortHash(`${key}#${counter}`)}`);
    used.add(name);
    const namespace: ToolNamespace = {
      name,
      description: describeNamespace(
        group.source,
        group.owner,
        group.members.map((member) => member.modelName),
      ),
    };
    for (const member of group.members) byId.set(member.id, namespace);
  }
  return byId;
}

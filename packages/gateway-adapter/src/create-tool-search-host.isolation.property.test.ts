// Property: fail closed on every read path of a host session, in every mode. A session on a host whose catalog
// holds tools its policy refuses answers every read exactly as a session on a host that never had those tools:
// the surface in every provider format (tools, code, directory with the likely tools of a request, native with its
// deferred declarations, auto, direct), `session.search` (the ranking behind the AI SDK and Agents SDK search),
// `session.tool`, the native search answers (OpenAI Responses and Anthropic), tool_search / tool_describe /
// tool_call, declared and hydrated names, and tools.search/describe/call through the code-mode bridge. And no
// refused tool's id, name or description appears anywhere in what the session returns.
// The reads of the search that leaves no dead end are among them: browsing (`tool_search({})` lists the servers,
// `tool_search({ server, offset?, limit? })` pages one, a refused server answered as an unknown one with
// suggestions from the visible servers only), the server map of a weak answer (tools mode, `tools.search` in code
// and the run's own map, native on Anthropic as text), and semantic fusion with the host's `embedder` (a
// deterministic concept embedder, the same on both hosts). A server whose every tool is refused is never listed,
// counted, suggested or summarised, and no word that only refused tools have shows in a partly refused server's
// summary (or anywhere else).
// Two properties: catalogs of 150 to 1,200 tools whose refused tools are the ones added last (the shape
// that leaked: a view's admitted-slot bitmap read past its end), under each kind of rule that can refuse them; and
// small catalogs with an MCP server whose tool list changes (`list_changed`) and which restarts between calls,
// under generated policies (owner globs, per-tool ids, name globs, hints, owner-only tools, per-agent layers),
// which shrink to a readable policy and script. `pnpm fuzz:isolation` runs both longer, with a fresh seed.
import fc from 'fast-check';
import { isTrustedByDefault, type Embedder } from '@tool-search/catalog';
import { createConceptEmbedder } from '@tool-search/catalog/testing';
import { renderWeakNote } from '@tool-search/modes';
import { createPolicy, type PolicyConfig, type PolicyContext } from '@tool-search/policy';
import { PROPERTY_SEED, propertySettings, scaledTimeout } from '@tool-search/property-settings';
import { createRunner, probeRuntime, type Runner } from '@tool-search/sandbox-runner';
import { createFakeRunner } from '@tool-search/sandbox-runner/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';
import type { ExecutableTool } from './executable-tool.js';
import { startScriptedMcpServer, until, type ScriptedMcpServer, type ScriptedMcpTool } from '@tool-search/test-utils';
import type { ToolSearchSession } from './tool-search-session.js';

const settings = propertySettings();
/** A test's time bound, scaled with the run counts (`pnpm fuzz:isolation` runs each property 25 times as long). */
const scaled = (ms: number) => ms * settings.runs(1);
const WORDS = ['file', 'read', 'write', 'issue', 'create', 'delete', 'calendar', 'event', 'mail', 'send', 'list', 'search', 'age', 'cash', 'note'];
const OWNERS = ['core', 'github', 'mail', 'cal', 'apigen', 'toolink'];
const MODES = ['tools', 'code', 'directory', 'native', 'auto', 'direct'] as const;
type ModeName = (typeof MODES)[number];
const FORMATS = ['openai-chat', 'openai-responses', 'anthropic'] as const;
/**
 * The concepts of the deterministic embedder both hosts of a run are given: each groups tool words with query
 * words no tool has (`document`, `ticket`, …), so a query can find tools by meaning alone (the vector scan).
 */
const CONCEPTS = [
  ['file', 'note', 'read', 'write', 'document', 'glorp'],
  ['issue', 'create', 'delete', 'ticket'],
  ['calendar', 'event', 'age', 'schedule'],
  ['mail', 'send', 'message'],
  ['list', 'search', 'find'],
  ['cash', 'money', 'quib'],
];
/** Made-up words of the concepts: no tool, thesaurus or typo has them, so only the vector scan finds tools for them. */
const BY_MEANING_ONLY = 'glorp quib';
const SEMANTIC_ONLY = ['document', 'ticket', 'schedule', 'message', 'find', 'money'];
/** Words no tool has, in no concept: a search for them is weak evidence (the answer carries the server map). */
const WEAK_QUERIES = ['xqz vwk', 'vwk'];
/** A word the descriptions of refused tools have (and no admitted one): a search for it finds nothing admitted. */
const REFUSED_WORD = 'zqhush';
const fakeProbe = async () => ({ ok: true as const, engine: 'node' as const, nodePath: 'fake', version: 'v26', isolation: 'node-only' as const });

const hosts: ToolSearchHost[] = [];
const servers: ScriptedMcpServer[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const configFor = (mode: ModeName): unknown => (mode === 'direct' ? false : mode === 'auto' ? { mode: 'auto' } : { mode });

/** One local tool as data: its id is `openclaw:<owner>:<name>`; `marker` is a word only its description has. */
interface LocalToolSpec {
  name: string;
  owner: string;
  description: string;
  ownerOnly: boolean;
}

function executable(spec: LocalToolSpec): ExecutableTool {
  return {
    name: spec.name,
    owner: spec.owner,
    description: spec.description,
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    ownerOnly: spec.ownerOnly,
    execute: (args: Record<string, unknown>) => `ran ${spec.owner}/${spec.name} ${JSON.stringify(args)}`,
  };
}

/** A tool the leak scan looks for: its id, its name (when no admitted tool shares it) and its description. */
interface Refused {
  id: string;
  name: string;
  description: string;
}

/**
 * Every read a session offers, with the same calls on both hosts; durations are the only thing that may differ
 * (zeroed). `free` collects what the session volunteered (surfaces, search answers), `probed` what it answered about
 * the keys asked for (which may echo a key, refused or not, as an unknown one is echoed).
 */
interface Probes {
  queries: string[];
  keys: string[];
  /** Server keys to browse (`<owner>` or `<source>:<owner>`): visible, refused, near-misses and unknown ones. */
  servers: string[];
}

async function readSession(session: ToolSearchSession, mode: ModeName, probes: Probes): Promise<{ free: unknown[]; probed: unknown[] }> {
  const free: unknown[] = [];
  const probed: unknown[] = [];
  let n = 0;
  const run = async (into: unknown[], name: string, args: unknown) => {
    const outcome = await session.execute({ name, args, toolCallId: `call${++n}` });
    into.push({ ...outcome, durationMs: 0 });
  };
  free.push(session.decision);
  for (const format of FORMATS) free.push(session.surface(format));
  free.push(session.modelSurface());
  // The server map, and a search whose every query is weak (its answer carries the map).
  await run(free, 'tool_search', {});
  await run(free, 'tool_search', { queries: WEAK_QUERIES });
  await run(free, 'tool_search_code', { code: `const a = await tools.search(${JSON.stringify(WEAK_QUERIES[0])}); return { hits: [...a], evidence: a.evidence, note: a.note, servers: a.servers }` });
  for (const query of probes.queries) {
    free.push(session.search(query, { limit: session.searchLimits.maxSearchLimit }));
    await run(free, 'tool_search', { query, limit: 20 });
    await run(free, 'tool_search_code', { code: `return await tools.search(${JSON.stringify(query)}, { limit: 20 })` });
    if (mode === 'native') {
      free.push(session.answerNativeSearch({ type: 'tool_search_call', call_id: `ts${++n}`, execution: 'client', arguments: { query } }, 'openai-responses'));
      free.push(session.answerNativeSearch({ type: 'tool_use', id: `tu${++n}`, name: 'tool_search', input: { query } }, 'anthropic'));
    }
  }
  // Native loads change the surface: read it again once the searches loaded what they found.
  for (const format of FORMATS) free.push(session.surface(format));
  // One server's tools, paged (a refused or unknown server is answered alike, with suggestions).
  for (const server of probes.servers) {
    await run(probed, 'tool_search', { server });
    await run(probed, 'tool_search', { server, offset: 1, limit: 3 });
    await run(probed, 'tool_search', { server, offset: 10, limit: 50 });
    // A search within the server: its hits, or its tools when none match.
    for (const query of probes.queries.slice(0, 3)) await run(probed, 'tool_search', { server, query, limit: 20 });
  }
  for (const key of probes.keys) {
    probed.push(session.tool(key) ?? null);
    await run(probed, 'tool_describe', { id: key });
    await run(probed, 'tool_call', { id: key, args: { text: 'x' } });
    // A declared name (direct, pinned, likely or natively loaded), a hydrated name (directory), or unknown.
    await run(probed, key.split(':').pop() ?? key, { text: 'x' });
    await run(probed, 'tool_search_code', { code: `return [await tools.describe(${JSON.stringify(key)}), await tools.call(${JSON.stringify(key)}, { text: 'x' })]` });
  }
  const telemetry = session.telemetry();
  probed.push(JSON.parse(JSON.stringify({ ...telemetry, calls: telemetry.calls.map((call) => ({ ...call, durationMs: 0 })) })));
  return { free, probed };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What the leak scan looks for besides the refused tools: servers refused as a whole and words only refused tools have. */
interface Hidden {
  /** `<source>:<owner>` of each server (owner) none of whose tools is admitted. */
  servers: readonly string[];
  /** Words of descriptions that refused tools have and no admitted tool has, nor any query. */
  words: readonly string[];
  /** Parts of refused tools' names no admitted tool has (looked for in what the session volunteered only: a key asked for is echoed). */
  nameWords: readonly string[];
  /** Words of admitted tools' names and descriptions (a refused server's name among them may show as theirs). */
  shared: ReadonlySet<string>;
}

/** What `hiddenLeaks` looks for, given the refused servers and the refused and admitted tools. */
function hiddenOf(servers: readonly string[], refused: readonly { name: string; description: string }[], admitted: readonly { name: string; description: string }[], queries: readonly string[]): Hidden {
  const shared = new Set(admitted.flatMap((tool) => `${tool.name} ${tool.description}`.toLowerCase().split(/[^a-z0-9]+/)));
  return { servers, words: refusedOnlyWords(refused, admitted, queries, 'description'), nameWords: refusedOnlyWords(refused, admitted, queries, 'name'), shared };
}

/** The lower-case words of a text, split as the catalog splits them (at non-alphanumerics). */
const wordsOf = (text: string) => text.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length >= 3 && !/^\d+$/.test(word));

/**
 * The words of `refused` tools that no admitted tool and no query has, outside the generated vocabulary (plain
 * words like `read` are the host's own words too: the surfaces and notes say them).
 */
function refusedOnlyWords(refused: readonly { name: string; description: string }[], admitted: readonly { name: string; description: string }[], queries: readonly string[], of: 'name' | 'description'): string[] {
  const known = new Set([...WORDS, ...SEMANTIC_ONLY, ...admitted.flatMap((tool) => [...wordsOf(tool.name), ...wordsOf(tool.description)]), ...queries.flatMap(wordsOf)]);
  // A word of a refused name too is looked for as a name's part (an id asked for echoes it).
  if (of === 'description') for (const tool of refused) for (const word of wordsOf(tool.name)) known.add(word);
  return [...new Set(refused.flatMap((tool) => wordsOf(tool[of])))].filter((word) => !known.has(word));
}

/**
 * The refused servers and words that show in `text`; the keys asked for are let be where they are echoed (a tool
 * key anywhere, a server key in the answer that no such server is here: a suggestion of it is still a leak).
 */
function hiddenLeaks(text: string, hidden: Hidden, asked: { tools: readonly string[]; servers: readonly string[] }, queries: readonly string[], volunteered = asked.tools.length === 0): string[] {
  const found: string[] = [];
  let scanned = text;
  // A whole key only: `openclaw:o5:x` asked for is let be, `openclaw:o5` is not.
  for (const key of [...asked.tools].sort((a, b) => b.length - a.length)) scanned = scanned.replace(new RegExp(`(?<![A-Za-z0-9_:])${escapeRegExp(key)}(?![A-Za-z0-9_:])`, 'g'), '');
  for (const key of asked.servers) scanned = scanned.replace(new RegExp(`No server \\\\*"${escapeRegExp(key)}\\\\*"`, 'g'), 'No server ""');
  // A map page's `next` gives the caller's own query back (`{ query, servers_offset }`): the caller's words, not the catalog's.
  for (const query of queries) scanned = scanned.replace(new RegExp(`\\\\*"query\\\\*":\\\\*"${escapeRegExp(query)}\\\\*"`, 'g'), '"query":""');
  const queryWords = new Set(queries.flatMap((query) => query.toLowerCase().split(/\s+/)));
  for (const server of hidden.servers) {
    const owner = server.slice(server.indexOf(':') + 1);
    const o = escapeRegExp(owner);
    // As a server key (a suggestion, a browse answer), as a map entry's owner, as a line of the map as text.
    if (new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(server)}(?![A-Za-z0-9_:])`).test(scanned)) found.push(`server key ${server}`);
    if (new RegExp(`\\\\*"owner\\\\*":\\\\*"${o}\\\\*"`).test(scanned)) found.push(`map entry of ${server}`);
    if (new RegExp(`- ${o}: `).test(scanned)) found.push(`map line of ${server}`);
    // The bare owner name, unless a query or a common word says it too (tool ids and names carry it joined).
    if (!queryWords.has(owner) && !hidden.shared.has(owner) && new RegExp(`(?<![A-Za-z0-9_:])${o}(?![A-Za-z0-9_:])`).test(scanned)) found.push(`owner name of ${server}`);
  }
  for (const word of volunteered ? [...hidden.words, ...hidden.nameWords] : hidden.words) if (new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(word)}(?![A-Za-z0-9])`, 'i').test(scanned)) found.push(`word ${word}`);
  return found;
}

/** The refused tools whose id, name or description shows in `text` (a name only when it is not also an admitted tool's). */
function leaks(text: string, refused: readonly Refused[], admittedNames: ReadonlySet<string>, probedKeys: readonly string[]): string[] {
  const found: string[] = [];
  for (const tool of refused) {
    if (text.includes(tool.description)) found.push(`description of ${tool.id}`);
    if (probedKeys.includes(tool.id) || probedKeys.includes(tool.name)) continue;
    // Whole ids and names only: `..._p9` is not in `..._p99`.
    const whole = (word: string) => new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(word)}(?![A-Za-z0-9_])`).test(text);
    if (whole(tool.id)) found.push(`id ${tool.id}`);
    else if (!admittedNames.has(tool.name) && whole(tool.name)) found.push(`name of ${tool.id}`);
  }
  return found;
}

/** Everything the leak scans find in what a session answered. */
function scan(seen: { free: unknown[]; probed: unknown[] }, probes: Probes, refused: readonly Refused[], admittedNames: ReadonlySet<string>, hidden: Hidden): string[] {
  const free = JSON.stringify(seen.free);
  const probed = JSON.stringify(seen.probed);
  return [
    ...leaks(free, refused, admittedNames, []).map((leak) => `unasked: ${leak}`),
    ...leaks(probed, refused, admittedNames, probes.keys),
    ...hiddenLeaks(free, hidden, { tools: [], servers: [] }, probes.queries).map((leak) => `unasked: ${leak}`),
    ...hiddenLeaks(probed, hidden, { tools: probes.keys, servers: probes.servers }, probes.queries),
  ];
}

/** Opens a session in every mode on both hosts and checks equality and the leak scan; `label` names the step. */
async function checkAllModes(
  withRefused: ToolSearchHost,
  withoutRefused: ToolSearchHost,
  policyConfig: PolicyConfig,
  context: PolicyContext,
  probes: Probes,
  refused: readonly Refused[],
  admittedNames: ReadonlySet<string>,
  hidden: Hidden,
  label: string,
): Promise<Partial<Record<ModeName, string>>> {
  const volunteered: Partial<Record<ModeName, string>> = {};
  // A policy object per host, as a runtime that compiles its config per run would; each host makes its own view.
  const policies = [createPolicy(policyConfig), createPolicy(policyConfig)] as const;
  // Every other mode gets the config itself (views shared by content), after a session of the same content in
  // another context (the owner, another agent) has made and kept its own view on each host.
  const otherContext: PolicyContext = { ...context, isOwner: context.isOwner !== true, agentId: context.agentId === 'main' ? 'other' : 'main' };
  await Promise.all([withRefused, withoutRefused].map(async (host) => (await host.openSession({ config: { mode: 'tools' }, policy: structuredClone(policyConfig), context: otherContext })).close()));
  for (const [index, mode] of MODES.entries()) {
    const options = { config: configFor(mode), context, sessionId: 's', ...(mode === 'directory' ? { request: probes.queries[0] ?? '' } : {}) };
    const byContent = index % 2 === 1;
    const a = await withRefused.openSession({ ...options, policy: byContent ? structuredClone(policyConfig) : policies[0] });
    const b = await withoutRefused.openSession({ ...options, policy: byContent ? structuredClone(policyConfig) : policies[1] });
    const seen = await readSession(a, mode, probes);
    const expected = await readSession(b, mode, probes);
    await Promise.all([a.close(), b.close()]);
    const what = `${label}, mode ${mode}, policy ${byContent ? 'config' : 'object'} ${JSON.stringify(policyConfig)}, context ${JSON.stringify(context)}`;
    expect(scan(seen, probes, refused, admittedNames, hidden), what).toEqual([]);
    expect(seen, what).toEqual(expected);
    volunteered[mode] = JSON.stringify(seen.free);
  }
  return volunteered;
}

// ---------------------------------------------------------------------------------------------------------------
// Large catalogs, refused tools added last.

/** The kinds of rule that refuse the owners added last; each is data, so a counterexample names its rule. */
const REFUSALS = ['deny-owner-globs', 'allow-the-others', 'agent-layer-deny', 'owner-only', 'deny-tool-ids', 'deny-name-globs'] as const;
type RefusalKind = (typeof REFUSALS)[number];

/** `size` tools over `owners` owners (`o0`, `o1`, …), in owner order (each owner's tools added together). */
function syntheticTools(size: number, owners: number, seed: number): LocalToolSpec[] {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  const pick = () => WORDS[Math.floor(next() * WORDS.length)] as string;
  const perOwner = Math.ceil(size / owners);
  return Array.from({ length: size }, (_, i) => {
    const owner = `o${Math.floor(i / perOwner)}`;
    // The name starts with its owner (for name globs) and ends with a serial (unique); the description has a
    // word no other tool's has, which the leak scan looks for.
    return { name: `${owner}_${pick()}_${pick()}_${i}`, owner, description: `${Array.from({ length: 5 }, pick).join(' ')} d${i}q`, ownerOnly: false };
  });
}

/**
 * The policy, context and tool specs that refuse `refusedOwners` by `kind`, and the tools `partIds` (the last tools
 * of the owner before them, so a server is partly refused) by their ids (or as owner-only tools).
 */
function refusalFor(
  kind: RefusalKind,
  tools: LocalToolSpec[],
  ownerNames: string[],
  refusedOwners: string[],
  partIds: readonly string[],
): { policy: PolicyConfig; context: PolicyContext; tools: LocalToolSpec[] } {
  const idOf = (tool: LocalToolSpec) => `openclaw:${tool.owner}:${tool.name}`;
  const refusedIds = tools.filter((tool) => refusedOwners.includes(tool.owner)).map(idOf);
  const part = partIds.length === 0 ? {} : { deny: [...partIds] };
  switch (kind) {
    case 'deny-owner-globs':
      return { policy: { deny: [...refusedOwners.map((owner) => `*:${owner}:*`), ...partIds] }, context: {}, tools };
    case 'allow-the-others':
      return { policy: { allow: ownerNames.filter((owner) => !refusedOwners.includes(owner)).map((owner) => `openclaw:${owner}:*`), ...part }, context: {}, tools };
    case 'agent-layer-deny':
      return { policy: { agents: { main: { deny: [...refusedOwners.map((owner) => `openclaw:${owner}:*`), ...partIds] }, other: { deny: ['*'] } } }, context: { agentId: 'main' }, tools };
    case 'owner-only':
      return { policy: {}, context: { isOwner: false }, tools: tools.map((tool) => (refusedOwners.includes(tool.owner) || partIds.includes(idOf(tool)) ? { ...tool, ownerOnly: true } : tool)) };
    case 'deny-tool-ids':
      return { policy: { deny: [...refusedIds, ...partIds] }, context: {}, tools };
    case 'deny-name-globs':
      return { policy: { deny: [...refusedOwners.map((owner) => `${owner}_*`), ...partIds] }, context: {}, tools };
  }
}

const queryArbitrary = fc.array(fc.constantFrom(...WORDS, ...SEMANTIC_ONLY, 'o1', 'zzz', 'calender'), { minLength: 1, maxLength: 4 }).map((words) => words.join(' '));

/** Server keys to browse: each visible one (bare and `<source>:<owner>`), each refused one, near-misses and unknown ones. */
function serverProbes(source: string, visible: readonly string[], refusedServers: readonly string[]): string[] {
  return [...new Set([...visible.slice(0, 1), ...visible.slice(-1).map((owner) => `${source}:${owner}`), ...refusedServers, ...refusedServers.map((owner) => `${source}:${owner}`), ...refusedServers.map((owner) => `${owner}x`), `${source}:nothing`, 'o99'])];
}

describe('a host session on a large catalog (property)', () => {
  it('answers every read in every mode as a host without the refused tools, whose tools were added last (150 to 1,200 tools)', async () => {
    const reached = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          size: fc.noBias(fc.integer({ min: 150, max: 1_200 })),
          owners: fc.integer({ min: 3, max: 12 }),
          refusedOwners: fc.integer({ min: 1, max: 3 }),
          // Tools refused at the end of the owner before the refused ones: a server refused in part.
          partlyRefused: fc.integer({ min: 0, max: 6 }),
          refusal: fc.constantFrom(...REFUSALS),
          seed: fc.nat(1_000_000),
          // Both hosts with the same embedder (semantic fusion), or none (lexical).
          semantic: fc.boolean(),
        }),
        fc.array(queryArbitrary, { minLength: 1, maxLength: 3 }),
        async (shape, queries) => {
          const generated = syntheticTools(shape.size, shape.owners, shape.seed);
          const ownerNames = [...new Set(generated.map((tool) => tool.owner))];
          const refusedOwners = ownerNames.slice(-Math.min(shape.refusedOwners, ownerNames.length - 1));
          const idOf = (tool: LocalToolSpec) => `openclaw:${tool.owner}:${tool.name}`;
          // The part refused of the owner before them: never all of its tools (it stays on the map).
          const partOwner = ownerNames[ownerNames.length - refusedOwners.length - 1] as string;
          const partOwnerTools = generated.filter((tool) => tool.owner === partOwner);
          const partIds = partOwnerTools.slice(partOwnerTools.length - Math.min(shape.partlyRefused, partOwnerTools.length - 1)).map(idOf);
          const isRefused = (tool: LocalToolSpec) => refusedOwners.includes(tool.owner) || partIds.includes(idOf(tool));
          // Refused tools share a word no admitted tool has: it must not reach a summary's characteristic words.
          const marked = generated.map((tool) => (isRefused(tool) ? { ...tool, description: tool.description.replace(/ (d\d+q)$/, ` ${REFUSED_WORD} $1`) } : tool));
          const { policy, context, tools } = refusalFor(shape.refusal, marked, ownerNames, refusedOwners, partIds);
          const refusedSpecs = tools.filter(isRefused);
          const admittedSpecs = tools.filter((tool) => !isRefused(tool));
          // The same embedder on both hosts: tool_search embeds its queries, and every later search of them fuses.
          const embedding: { embedder?: Embedder } = shape.semantic ? { embedder: createConceptEmbedder(CONCEPTS) } : {};
          const withRefused = await createToolSearchHost({ sources: { openclaw: tools.map(executable) }, probe: fakeProbe, runner: createFakeRunner(), ...embedding });
          hosts.push(withRefused);
          const withoutRefused = await createToolSearchHost({ sources: { openclaw: admittedSpecs.map(executable) }, probe: fakeProbe, runner: createFakeRunner(), ...embedding });
          hosts.push(withoutRefused);
          // The refused tools at the very end of the index, at its start, an admitted one, and one never catalogued.
          const keys = [...refusedSpecs.slice(-2).map(idOf), idOf(refusedSpecs[0] as LocalToolSpec), (refusedSpecs.at(-1) as LocalToolSpec).name, idOf(admittedSpecs[0] as LocalToolSpec), 'openclaw:o0:nothing_here'];
          // Queries made of a refused tool's own words (so a leak would rank it first), the refused tools' own
          // word (nothing admitted has it: weak), words nothing has (weak), and the generated ones.
          const own = (refusedSpecs.at(-1) as LocalToolSpec).description.split(' ').slice(0, 3).join(' ');
          const probes = { queries: [own, REFUSED_WORD, WEAK_QUERIES[0] as string, BY_MEANING_ONLY, ...queries], keys, servers: serverProbes('openclaw', ownerNames.filter((owner) => !refusedOwners.includes(owner)), refusedOwners) };
          const refused = refusedSpecs.map((tool) => ({ id: idOf(tool), name: tool.name, description: tool.description }));
          const hidden = hiddenOf(
            refusedOwners.map((owner) => `openclaw:${owner}`),
            refusedSpecs,
            admittedSpecs,
            probes.queries.filter((query) => query !== REFUSED_WORD),
          );
          const label = `${shape.size} tools, refused ${refusedOwners.join(',')} and ${partIds.length} of ${partOwner} by ${shape.refusal}, ${shape.semantic ? 'semantic' : 'lexical'}`;
          const volunteered = await checkAllModes(withRefused, withoutRefused, policy, context, probes, refused, new Set(admittedSpecs.map((tool) => tool.name)), hidden, label);
          // The reads were reached: weak answers with the map in tools and code mode, and in native mode on
          // Anthropic as text (lexical only: fused, a search always has hits to load).
          expect(volunteered.tools, label).toMatch(/"evidence":"weak","note":"No tool clearly matches[^"]*","hits":\[[^\]]*\],"servers":\{"servers":\[\{"source":"openclaw"/);
          expect(volunteered.code, label).toMatch(/"evidence":"weak","note":"No tool clearly matches[^"]*","servers":\{"servers":\[\{"source":"openclaw"/);
          if (!shape.semantic) expect(volunteered.native, label).toContain(renderWeakNote('native'));
          // And the vector scan: words no tool has, whose concepts admitted tools have, find tools only when fused.
          const session = await withRefused.openSession({ config: { mode: 'tools' }, policy: createPolicy(policy), context });
          const byMeaning = await session.execute({ name: 'tool_search', args: { query: BY_MEANING_ONLY }, toolCallId: 'semantic' });
          // (Weak evidence either way: the lexical coverage of the words is nil.)
          expect(byMeaning, label).toMatchObject({ status: 'ok', result: { evidence: 'weak', hits: shape.semantic ? expect.arrayContaining([expect.objectContaining({ id: expect.any(String) })]) : [] } });
          reached.add(shape.semantic ? 'semantic' : 'lexical');
          await Promise.all(hosts.splice(0).map((host) => host.close()));
        },
      ),
      { numRuns: settings.runs(3), seed: settings.seed },
    );
    // Both kinds of host were tried: under `pnpm test`'s seed, and in longer runs (a replayed seed of 3 runs may draw one kind).
    if (settings.seed === PROPERTY_SEED || settings.runs(3) >= 12) expect([...reached].sort()).toEqual(['lexical', 'semantic']);
  }, scaled(240_000));
});

// ---------------------------------------------------------------------------------------------------------------
// Small catalogs, generated policies, an MCP server that changes and restarts.

/** A pattern as data (resolved against the tools of the run): a counterexample prints the rule, then the policy. */
type PatternSpec =
  | { owner: string }
  | { source: 'openclaw' | 'mcp'; owner: string }
  | { tool: number }
  | { nameWord: string }
  | { hint: 'readOnly' | 'destructive' | 'idempotent' | 'openWorld' }
  | { group: 'openclaw' | 'mcp' };

const patternArbitrary: fc.Arbitrary<PatternSpec> = fc.oneof(
  fc.record({ owner: fc.constantFrom(...OWNERS, 'srv') }),
  fc.record({ source: fc.constantFrom('openclaw' as const, 'mcp' as const), owner: fc.constantFrom(...OWNERS, 'srv') }),
  fc.record({ tool: fc.nat(40) }),
  fc.record({ nameWord: fc.constantFrom(...WORDS) }),
  fc.record({ hint: fc.constantFrom('readOnly' as const, 'destructive' as const, 'idempotent' as const, 'openWorld' as const) }),
  fc.record({ group: fc.constantFrom('openclaw' as const, 'mcp' as const) }),
);

interface LayerSpec {
  allow?: PatternSpec[];
  deny: PatternSpec[];
}
const layerArbitrary: fc.Arbitrary<LayerSpec> = fc.record(
  { allow: fc.array(patternArbitrary, { maxLength: 3 }), deny: fc.array(patternArbitrary, { maxLength: 3 }) },
  { requiredKeys: ['deny'] },
);
const policySpecArbitrary = fc.record(
  { global: layerArbitrary, agents: fc.dictionary(fc.constantFrom('main', '*'), layerArbitrary, { maxKeys: 2 }) },
  { requiredKeys: ['global'] },
);
const contextArbitrary: fc.Arbitrary<PolicyContext> = fc.record({ agentId: fc.constantFrom('main', 'other'), isOwner: fc.boolean() }, { requiredKeys: ['isOwner'] });

function resolvePattern(pattern: PatternSpec, ids: readonly string[]): string {
  if ('tool' in pattern) return ids.length === 0 ? 'openclaw:core:none' : (ids[pattern.tool % ids.length] as string);
  if ('source' in pattern) return `${pattern.source}:${pattern.owner}:*`;
  if ('owner' in pattern) return `*:${pattern.owner}:*`;
  if ('nameWord' in pattern) return `*${pattern.nameWord}*`;
  if ('hint' in pattern) return `hint:${pattern.hint}`;
  return `group:${pattern.group}`;
}

function resolvePolicy(spec: { global: LayerSpec; agents?: Record<string, LayerSpec> }, ids: readonly string[]): PolicyConfig {
  const layer = (from: LayerSpec) => ({ ...(from.allow === undefined ? {} : { allow: from.allow.map((pattern) => resolvePattern(pattern, ids)) }), deny: from.deny.map((pattern) => resolvePattern(pattern, ids)) });
  const agents = Object.entries(spec.agents ?? {});
  return { ...layer(spec.global), ...(agents.length === 0 ? {} : { agents: Object.fromEntries(agents.map(([key, value]) => [key, layer(value)])) }) };
}

const localToolArbitrary = fc.record({
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 2 }),
  owner: fc.constantFrom(...OWNERS),
  description: fc.array(fc.constantFrom(...WORDS), { maxLength: 5 }),
  ownerOnly: fc.boolean(),
});
const hintsArbitrary = fc.record(
  { readOnlyHint: fc.boolean(), destructiveHint: fc.boolean(), idempotentHint: fc.boolean(), openWorldHint: fc.boolean() },
  { requiredKeys: [] },
);
const mcpToolArbitrary = fc.record({ words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 2 }), description: fc.array(fc.constantFrom(...WORDS), { maxLength: 5 }), annotations: fc.option(hintsArbitrary, { nil: undefined }) });
type McpToolDraft = { words: string[]; description: string[]; annotations: ScriptedMcpTool['annotations'] | undefined };

/** What happens to the MCP server between two rounds of reads. */
type ServerStep = { kind: 'list_changed'; tools: McpToolDraft[] } | { kind: 'restart'; tools: McpToolDraft[] };
const serverStepArbitrary: fc.Arbitrary<ServerStep> = fc.oneof(
  fc.record({ kind: fc.constant('list_changed' as const), tools: fc.array(mcpToolArbitrary, { maxLength: 6 }) }),
  fc.record({ kind: fc.constant('restart' as const), tools: fc.array(mcpToolArbitrary, { maxLength: 6 }) }),
);

/** MCP tools with unique names and a description word of their own (`m<serial>k`, for the leak scan). */
function mcpTools(drafts: readonly McpToolDraft[], serial: { next: number }): ScriptedMcpTool[] {
  const seen = new Set<string>();
  return drafts.flatMap((draft) => {
    // `_s`: apart from description words; the same words make the same name again in a later list (the same id).
    const name = `${draft.words.join('_')}_s`;
    if (seen.has(name)) return [];
    seen.add(name);
    return [{ name, description: `${draft.description.join(' ')} m${serial.next++}k`, ...(draft.annotations === undefined ? {} : { annotations: draft.annotations }) }];
  });
}

describe('a host session over a changing MCP server (property)', () => {
  it('answers every read in every mode as a host without the refused tools, before and after list_changed and restarts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(localToolArbitrary, { minLength: 1, maxLength: 10 }),
        fc.array(mcpToolArbitrary, { maxLength: 6 }),
        fc.array(serverStepArbitrary, { maxLength: 2 }),
        policySpecArbitrary,
        contextArbitrary,
        fc.boolean(),
        fc.array(queryArbitrary, { minLength: 1, maxLength: 2 }),
        // Local tools of an owner no pattern names, catalogued before the server's: with enough of them, the
        // server's refused tools sit past the end of a view's first bitmap.
        fc.integer({ min: 0, max: 250 }),
        // Tools every listing of the server has besides the generated ones: a server refused as a whole then has
        // enough tools after the local ones to reach past a view's first bitmap.
        fc.integer({ min: 0, max: 100 }),
        // Both hosts with the same embedder (semantic fusion), or none (lexical).
        fc.boolean(),
        async (localDrafts, firstMcp, steps, policySpec, context, trusted, queries, padding, serverBulk, semantic) => {
          const seenLocal = new Set<string>();
          const local: LocalToolSpec[] = localDrafts.flatMap((draft, i) => {
            // A serial keeps a name apart from the words of descriptions and queries (so the leak scan can look for it).
            const name = `${draft.words.join('_')}_${i}`;
            if (seenLocal.has(`${draft.owner}:${name}`)) return [];
            seenLocal.add(`${draft.owner}:${name}`);
            return [{ name, owner: draft.owner, description: `${draft.description.join(' ')} d${i}q`, ownerOnly: draft.ownerOnly }];
          });
          for (let i = 0; i < padding; i++) local.push({ name: `${WORDS[i % WORDS.length] as string}_${WORDS[(i * 7) % WORDS.length] as string}_p${i}`, owner: 'bulk', description: `${WORDS[(i * 3) % WORDS.length] as string} bulk b${i}q`, ownerOnly: false });
          const serial = { next: 0 };
          const listing = (drafts: readonly McpToolDraft[]) => [
            ...mcpTools(drafts, serial),
            ...Array.from({ length: serverBulk }, (_, i) => ({ name: `bulk_${WORDS[i % WORDS.length] as string}_${i}_s`, description: `${WORDS[(i * 5) % WORDS.length] as string} bulk m${serial.next++}k` })),
          ];
          let mcp = listing(firstMcp);
          const allIds = () => [...local.map((tool) => `openclaw:${tool.owner}:${tool.name}`), ...mcp.map((tool) => `mcp:srv:${tool.name}`)];
          const policyConfig = resolvePolicy(policySpec, allIds());
          const policy = createPolicy(policyConfig);
          const admitsLocal = (tool: LocalToolSpec) =>
            policy.check({ id: `openclaw:${tool.owner}:${tool.name}`, name: tool.name, source: 'openclaw', owner: tool.owner, ownerOnly: tool.ownerOnly, trusted: isTrustedByDefault('openclaw') }, context).allowed;
          const admitsMcp = (tool: ScriptedMcpTool) =>
            policy.check({ id: `mcp:srv:${tool.name}`, name: tool.name, source: 'mcp', owner: 'srv', ownerOnly: false, trusted, ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }) }, context).allowed;

          const full = await startScriptedMcpServer('srv', mcp);
          servers.push(full);
          const filtered = await startScriptedMcpServer('srv', mcp.filter(admitsMcp));
          servers.push(filtered);
          const hostOptions = { probe: fakeProbe, restartBackoff: { initialMs: 10, maxMs: 40 }, ...(semantic ? { embedder: createConceptEmbedder(CONCEPTS) } : {}) };
          const withRefused = await createToolSearchHost({ ...hostOptions, sources: { openclaw: local.map(executable), mcp: [full.config({ trusted })] }, runner: createFakeRunner() });
          hosts.push(withRefused);
          const withoutRefused = await createToolSearchHost({ ...hostOptions, sources: { openclaw: local.filter(admitsLocal).map(executable), mcp: [filtered.config({ trusted })] }, runner: createFakeRunner() });
          hosts.push(withoutRefused);
          // Sessions with no policy watch each host's catalog take in the server's current list (names alone can
          // be the same count before and after a change).
          const watchers = await Promise.all([withRefused, withoutRefused].map((host) => host.openSession({ config: { mode: 'tools' }, context: { isOwner: true } })));
          let previous: ScriptedMcpTool[] = [];
          const settled = async () => {
            const expected = [mcp, mcp.filter(admitsMcp)];
            await until(
              () =>
                [withRefused, withoutRefused].every((host, i) => {
                  const listed = expected[i] as ScriptedMcpTool[];
                  const watcher = watchers[i] as ToolSearchSession;
                  return (
                    host.status().servers[0]?.state === 'ready' &&
                    host.status().servers[0]?.tools === listed.length &&
                    listed.every((tool) => watcher.tool(`mcp:srv:${tool.name}`)?.description === tool.description) &&
                    previous.every((tool) => listed.some((now) => now.name === tool.name) || watcher.tool(`mcp:srv:${tool.name}`) === undefined)
                  );
                }),
              'both hosts to list the server tools',
              20_000,
            );
            previous = mcp;
          };
          // Sessions opened before the changes stay open through them (their views follow the catalog's journal).
          const longLived = await Promise.all([withRefused, withoutRefused].map((host) => host.openSession({ config: { mode: 'tools' }, policy, context, sessionId: 's' })));
          const everRefused = new Map<string, Refused>();
          const round = async (label: string) => {
            await settled();
            const admittedNames = new Set([...local.filter(admitsLocal).map((tool) => tool.name), ...mcp.filter(admitsMcp).map((tool) => tool.name)]);
            for (const tool of local.filter((candidate) => !admitsLocal(candidate))) everRefused.set(`openclaw:${tool.owner}:${tool.name}`, { id: `openclaw:${tool.owner}:${tool.name}`, name: tool.name, description: tool.description });
            for (const tool of mcp.filter((candidate) => !admitsMcp(candidate))) everRefused.set(`mcp:srv:${tool.name}`, { id: `mcp:srv:${tool.name}`, name: tool.name, description: tool.description });
            const admittedIds = new Set([...local.filter(admitsLocal).map((tool) => `openclaw:${tool.owner}:${tool.name}`), ...mcp.filter(admitsMcp).map((tool) => `mcp:srv:${tool.name}`)]);
            const refusedNow = [...everRefused.values()].filter((tool) => !admittedIds.has(tool.id));
            const keys = [...[...everRefused.keys()].slice(-3), ...allIds().slice(0, 2), ...local.slice(0, 1).map((tool) => tool.name), 'mcp:srv:nothing_here'];
            // Servers (owners) with tools in the catalog and none admitted: never listed, counted or suggested.
            const owners = [...new Set(local.map((tool) => tool.owner))];
            const hiddenLocal = owners.filter((owner) => !local.some((tool) => tool.owner === owner && admitsLocal(tool)));
            const visibleLocal = owners.filter((owner) => !hiddenLocal.includes(owner));
            const hiddenServers = [...hiddenLocal.map((owner) => `openclaw:${owner}`), ...(mcp.length > 0 && !mcp.some(admitsMcp) ? ['mcp:srv'] : [])];
            const servers = [...serverProbes('openclaw', visibleLocal, hiddenLocal), 'srv', 'mcp:srv', 'srvx'];
            const probes = { queries: [...queries, WEAK_QUERIES[1] as string], keys, servers };
            const admittedTools = [...local.filter(admitsLocal), ...mcp.filter(admitsMcp).map((tool) => ({ name: tool.name, description: tool.description ?? '' }))];
            const hidden = hiddenOf(hiddenServers, refusedNow, admittedTools, probes.queries);
            await checkAllModes(withRefused, withoutRefused, policyConfig, context, probes, refusedNow, admittedNames, hidden, label);
            const seen = await readSession(longLived[0] as ToolSearchSession, 'tools', probes);
            expect(scan(seen, probes, refusedNow, admittedNames, hidden), `${label}, long-lived session`).toEqual([]);
            expect(seen, `${label}, long-lived session, policy ${JSON.stringify(policyConfig)}`).toEqual(await readSession(longLived[1] as ToolSearchSession, 'tools', probes));
          };
          await round('first start');
          for (const [index, step] of steps.entries()) {
            mcp = listing(step.tools);
            if (step.kind === 'list_changed') {
              await Promise.all([full.setTools(mcp), filtered.setTools(mcp.filter(admitsMcp))]);
            } else {
              const before = [full.sessionsOpened, filtered.sessionsOpened];
              await Promise.all([full.restart(mcp), filtered.restart(mcp.filter(admitsMcp))]);
              await until(() => full.sessionsOpened > (before[0] as number) && filtered.sessionsOpened > (before[1] as number), 'both hosts to reconnect', 20_000);
            }
            await round(`after step ${index + 1} (${step.kind})`);
          }
          await Promise.all(hosts.splice(0).map((host) => host.close()));
          await Promise.all(servers.splice(0).map((server) => server.close()));
        },
      ),
      { numRuns: settings.runs(8), seed: settings.seed },
    );
  }, scaled(240_000));
});

// ---------------------------------------------------------------------------------------------------------------
// The real QuickJS engine: the bridge as a sandboxed body sees it (values copied out of QuickJS and back).

// Each body makes 5 searches and 6 bridge calls over 600 tools: on a loaded machine that can pass the default 10 s run
// limit, so the run's own timeout scales as the tests' do (within the runner's 60 s ceiling).
const CODE_CONFIG = { mode: 'code', codeTimeoutMs: Math.min(60_000, scaledTimeout(10_000)) } as const;

describe('a code-mode host session on the QuickJS engine (property)', () => {
  it('answers tools.search/describe/call in a sandboxed body as a host without the refused tools, added last', async () => {
    const generated = syntheticTools(600, 6, 7);
    const refusedOwners = ['o4', 'o5'];
    const admittedSpecs = generated.filter((tool) => !refusedOwners.includes(tool.owner));
    const refusedSpecs = generated.filter((tool) => refusedOwners.includes(tool.owner));
    const runner: Runner = createRunner({ engine: 'quickjs', pool: { size: 1 } });
    const probe = () => probeRuntime({ engine: 'quickjs' });
    try {
      const withRefused = await createToolSearchHost({ sources: { openclaw: generated.map(executable) }, probe, runner });
      hosts.push(withRefused);
      const withoutRefused = await createToolSearchHost({ sources: { openclaw: admittedSpecs.map(executable) }, probe, runner });
      hosts.push(withoutRefused);
      const policy = createPolicy({ deny: refusedOwners.map((owner) => `*:${owner}:*`) });
      const sessions = await Promise.all([withRefused, withoutRefused].map((host) => host.openSession({ config: CODE_CONFIG, policy, sessionId: 's' })));
      expect(sessions[0]?.decision).toMatchObject({ mode: 'code', runtime: { engine: 'quickjs' } });
      const idOf = (tool: LocalToolSpec) => `openclaw:${tool.owner}:${tool.name}`;
      const refused = refusedSpecs.map((tool) => ({ id: idOf(tool), name: tool.name, description: tool.description }));
      const admittedNames = new Set(admittedSpecs.map((tool) => tool.name));
      const hidden = hiddenOf(
        refusedOwners.map((owner) => `openclaw:${owner}`),
        refusedSpecs,
        admittedSpecs,
        [],
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(queryArbitrary, { minLength: 1, maxLength: 3 }),
          fc.constantFrom(...refusedSpecs.slice(-20)),
          async (queries, target) => {
            // The refused tool's own words as a query, its id and name as keys, and an id never catalogued.
            const own = target.description.split(' ').slice(0, 3).join(' ');
            // A weak search's hits carry the server map (copied out with them), and so does a run of weak searches.
            const searched = [own, WEAK_QUERIES[0] as string, ...queries];
            const code = `
              const found = [];
              for (const query of ${JSON.stringify(searched)}) {
                const hits = await tools.search(query, { limit: 20 });
                found.push({ hits: [...hits], evidence: hits.evidence, note: hits.note, servers: hits.servers });
              }
              const asked = [];
              for (const key of ${JSON.stringify([idOf(target), target.name, 'openclaw:o0:nothing_here'])}) asked.push([await tools.describe(key), await tools.call(key, { text: 'x' })]);
              return { found, asked };`;
            const [seen, expected] = await Promise.all(sessions.map((session) => session?.execute({ name: 'tool_search_code', args: { code }, toolCallId: 'q' })));
            const strip = (outcome: unknown) => ({ ...(outcome as object), durationMs: 0 });
            expect(strip(seen), `queries ${JSON.stringify(queries)}, refused ${idOf(target)}`).toEqual(strip(expected));
            expect(seen).toMatchObject({ status: 'ok' });
            expect(leaks(JSON.stringify((seen as { result?: { value?: { found?: unknown } } }).result?.value?.found), refused, admittedNames, [])).toEqual([]);
            expect((seen as { result?: { value?: { found?: Array<{ evidence?: string }> } } }).result?.value?.found?.[1]?.evidence, 'a search for words nothing has').toBe('weak');
            expect(hiddenLeaks(JSON.stringify(seen), hidden, { tools: [idOf(target), target.name], servers: [] }, searched)).toEqual([]);
          },
        ),
        { numRuns: settings.runs(4), seed: settings.seed },
      );
    } finally {
      await Promise.all(hosts.splice(0).map((host) => host.close()));
      await runner.close();
    }
  }, scaled(120_000));
});

// Seeded, shrink-free catalogs for the isolation suites that build hundreds or thousands of tools from one number
// (a fast-check record of sizes, owners and a seed), so a counterexample prints as that record.

/** The words the hundred-tool isolation suites build names, descriptions and queries from. */
export const ISOLATION_WORDS = ['file', 'read', 'write', 'issue', 'create', 'delete', 'calendar', 'event', 'mail', 'send', 'list', 'search', 'age', 'cash', 'note'];

/** A draw from `words` driven by a xorshift32 stream of `seed` (0 counts as 1): the same seed, the same draws. */
export function seededPick(words, seed) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  return () => words[Math.floor(next() * words.length)];
}

/** The 32-bit FNV-1a hash of `text`: a stable, seed-free way for a rule given as data to pick tools. */
export function fnv1a(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** `size` local tools over owners `o0`… in owner order; a description word (`d<i>q`) is each tool's own. */
export function localTools(size, owners, seed) {
  const pick = seededPick(ISOLATION_WORDS, seed);
  const perOwner = Math.ceil(size / owners);
  return Array.from({ length: size }, (_, i) => {
    const owner = `o${Math.floor(i / perOwner)}`;
    return { name: `${owner}_${pick()}_${pick()}_${i}`, owner, description: `${Array.from({ length: 5 }, pick).join(' ')} d${i}q` };
  });
}

/** A local tool as a host source takes it: one `text` argument, and it answers with what it ran. */
export function executableTool(tool) {
  return {
    ...tool,
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    execute: (args) => `ran ${tool.owner}/${tool.name} ${JSON.stringify(args)}`,
  };
}

/** A sandbox probe that reports a usable Node engine without starting one (the suites' runners are fakes). */
export async function fakeProbe() {
  return { ok: true, engine: 'node', nodePath: 'fake', version: 'v26', isolation: 'node-only' };
}

/**
 * The owners of `tools` in order of first appearance, split so the last `refusedOwners` of them (at most all but one)
 * are refused: the refused tools are the ones added last.
 */
export function refuseLastOwners(tools, refusedOwners) {
  const ownerNames = [...new Set(tools.map((tool) => tool.owner))];
  const refused = ownerNames.slice(-Math.min(refusedOwners, ownerNames.length - 1));
  return {
    ownerNames,
    refusedOwners: refused,
    admittedOwners: ownerNames.filter((owner) => !refused.includes(owner)),
    admitted: tools.filter((tool) => !refused.includes(tool.owner)),
    refused: tools.filter((tool) => refused.includes(tool.owner)),
  };
}

/**
 * The names of the `refused` tools that `text` shows: by description, or by name (followed by `nameEnd`, so a name
 * is not found inside a longer one) unless `echoed` says the name is one a probe asked for and may come back.
 */
export function shownRefusedTools(text, refused, { echoed = () => false, nameEnd = '' } = {}) {
  return refused.filter((tool) => text.includes(tool.description) || (!echoed(tool) && text.includes(`${tool.name}${nameEnd}`))).map((tool) => tool.name);
}

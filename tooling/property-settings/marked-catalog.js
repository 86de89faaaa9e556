// Small random catalogs for the framework adapters' fail-closed suites: each tool's name and description carry a
// marker of their own (`n<i>n`, `zq<i>q`), so a leak is found wherever it lands.
import fc from 'fast-check';

/** The words the adapter suites build tool names, descriptions, deny globs and queries from. */
export const ADAPTER_WORDS = ['file', 'read', 'write', 'issue', 'create', 'delete', 'calendar', 'event', 'mail', 'send', 'list', 'search'];
/** The owners the adapter suites' tools belong to. */
export const ADAPTER_OWNERS = ['core', 'github', 'mail', 'cal'];

/** Raw tools: name words, an owner and description words (at most `maxDescriptionWords`), 1 to `maxTools` of them. */
export function rawToolsArbitrary({ maxDescriptionWords, maxTools }) {
  return fc.array(
    fc.record({ words: fc.array(fc.constantFrom(...ADAPTER_WORDS), { minLength: 1, maxLength: 3 }), owner: fc.constantFrom(...ADAPTER_OWNERS), description: fc.array(fc.constantFrom(...ADAPTER_WORDS), { maxLength: maxDescriptionWords }) }),
    { minLength: 1, maxLength: maxTools },
  );
}

/** A policy of `minRules` to 3 deny globs, each a word anywhere in an id or a whole owner. */
export function denyPolicyArbitrary({ minRules }) {
  return fc.record({
    deny: fc.array(fc.oneof(fc.constantFrom(...ADAPTER_WORDS).map((word) => `*${word}*`), fc.constantFrom(...ADAPTER_OWNERS).map((owner) => `*:${owner}:*`)), { minLength: minRules, maxLength: 3 }),
  });
}

/** Tools named `<words>_n<i>n` and described `<words> zq<i>q`; a run of tool `i` pushes `n<i>n` onto `ran`. */
export function markedTools(raw, ran) {
  return raw.map((tool, index) => ({
    name: `${tool.words.join('_')}_n${index}n`,
    owner: tool.owner,
    description: `${tool.description.join(' ')} zq${index}q`,
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    execute: () => {
      ran.push(`n${index}n`);
      return 'ran';
    },
  }));
}

/** `text` with every occurrence of each echo removed (what the model itself sent may come back to it). */
export function withoutEchoes(text, echoes) {
  return echoes.reduce((rest, echo) => rest.split(echo).join(''), text);
}

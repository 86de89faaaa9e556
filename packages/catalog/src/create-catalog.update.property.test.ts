// Property: a catalog updated in place, as a server's `list_changed` updates it (its tools taken out together,
// some back with new text, some new, some gone), answers every read exactly as a catalog built fresh from the same
// tools, after any number of such updates; and so does a view over it, against a fresh catalog of what it admits.
import fc from 'fast-check';
import { propertySettings, scaledTimeout } from '@tool-search/property-settings';
import { describe, expect, it } from 'vitest';
import { createCatalog } from './create-catalog.js';
import { readEveryRead } from './read-every-read.js';
import type { ToolInput } from './types.js';

const WORDS = ['file', 'read', 'write', 'issue', 'create', 'delete', 'calendar', 'event', 'mail', 'send', 'list', 'search', 'repo', 'user', 'image'];
const OWNERS = ['github', 'fs', 'core', 'mail'];

const toolArbitrary = fc.record({
  nameWords: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
  owner: fc.constantFrom(...OWNERS),
  descriptionWords: fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }),
});
/** One server's list_changed: which of its tools stay (by position), which of those get new text, and new tools. */
const updateArbitrary = fc.record({
  owner: fc.constantFrom(...OWNERS),
  kept: fc.array(fc.boolean(), { maxLength: 12 }),
  rewritten: fc.array(fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }), { maxLength: 12 }),
  added: fc.array(fc.record({ nameWords: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }), descriptionWords: fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }) }), { maxLength: 5 }),
});
const queryArbitrary = fc.array(fc.constantFrom(...WORDS, 'github', 'fil', 'calender'), { minLength: 1, maxLength: 5 }).map((words) => words.join(' '));

const settings = propertySettings();
const idOf = (tool: ToolInput) => `${tool.source}:${tool.owner}:${tool.name}`;


describe('catalog updated in place (property)', () => {
  it("answers every read as a catalog built fresh from the same tools, after any sequence of one server's list_changed", () => {
    fc.assert(
      fc.property(
        fc.array(toolArbitrary, { minLength: 1, maxLength: 30 }),
        fc.array(updateArbitrary, { minLength: 1, maxLength: 4 }),
        fc.array(queryArbitrary, { minLength: 1, maxLength: 5 }),
        fc.nat(10),
        (initialRaw, updates, queries, viewModulus) => {
          // The current tools, in the order a fresh catalog is built from (the catalog's own `list()` order).
          let current: ToolInput[] = [];
          const put = (tool: ToolInput) => {
            if (!current.some((other) => idOf(other) === idOf(tool))) current.push(tool);
          };
          for (const tool of initialRaw) put({ name: tool.nameWords.join('_'), owner: tool.owner, source: 'mcp', description: tool.descriptionWords.join(' ') });
          const catalog = createCatalog(current);
          // A view as a session holds, made before the updates: it catches up through the shared index.
          const admits = (id: string) => viewModulus === 0 || id.length % (viewModulus + 1) !== 0;
          const view = catalog.view((tool) => admits(tool.id));
          view.search(queries[0] ?? 'file');
          const everId = new Set(current.map(idOf));

          for (const [round, update] of updates.entries()) {
            const before = current.filter((tool) => tool.owner === update.owner);
            // The new list: the kept tools (some with new text), then the new ones.
            const next: ToolInput[] = [];
            before.forEach((tool, at) => {
              if (update.kept[at] === false) return;
              const words = update.rewritten[at];
              next.push(words === undefined ? tool : { ...tool, description: `${words.join(' ')} v${round}` });
            });
            for (const added of update.added) {
              const tool: ToolInput = { name: added.nameWords.join('_'), owner: update.owner, source: 'mcp', description: added.descriptionWords.join(' ') };
              if (!next.some((other) => idOf(other) === idOf(tool))) next.push(tool);
            }
            // As the gateway applies a list_changed: the server's old tools out at once, its new list in.
            catalog.remove(before.map(idOf));
            catalog.add(next);
            current = [...current.filter((tool) => tool.owner !== update.owner), ...next];
            for (const tool of next) everId.add(idOf(tool));
          }

          const keys = [...everId, 'mcp:nobody:nothing'];
          const fresh = createCatalog(current);
          expect(readEveryRead(catalog, queries, keys)).toEqual(readEveryRead(fresh, queries, keys));
          const freshAdmitted = createCatalog(current.filter((tool) => admits(idOf(tool))));
          expect(readEveryRead(view, queries, keys)).toEqual(readEveryRead(freshAdmitted, queries, keys));
        },
      ),
      { numRuns: settings.runs(300), seed: settings.seed },
    );
  }, scaledTimeout(60_000));
});

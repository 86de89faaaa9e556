import { describe, expect, it } from 'vitest';
import { createCatalog } from './create-catalog.js';
import { isCatalogError } from './errors.js';
import { normalizeTerm } from './internal/tokenize-text.js';
import type { Thesaurus, ToolInput } from './types.js';
import { wordnetThesaurus } from './wordnet/index.js';

const stem = (word: string) => normalizeTerm(word) as string;
/** A thesaurus from words, written in the analysed form the catalog looks keys up in. */
function thesaurusOf(entries: Record<string, string[]>): Thesaurus {
  const table = new Map(Object.entries(entries).map(([key, words]) => [key.split(' ').map((word, i) => (i === 0 ? stem(word) : word)).join(' '), words.map(stem)]));
  return { id: 'test', related: (key) => table.get(key) };
}

const PAGES: ToolInput[] = [
  { name: 'move_page', source: 'mcp', owner: 'notion', description: 'Move a page under another parent page.' },
  { name: 'update_page', source: 'mcp', owner: 'notion', description: 'Update the properties of a page.' },
  { name: 'delete_page', source: 'mcp', owner: 'notion', description: 'Delete a page.' },
];
const ids = (hits: Array<{ id: string }>) => hits.map((hit) => hit.id);

describe('createCatalog with a thesaurus', () => {
  it('finds a tool through a WordNet relative of a query word no tool has', () => {
    const query = 'relocate this wiki doc so it sits under Archive';
    expect(ids(createCatalog(PAGES).search(query))).not.toContain('mcp:notion:move_page');
    expect(ids(createCatalog(PAGES, { thesaurus: wordnetThesaurus() }).search(query))[0]).toBe('mcp:notion:move_page');
  });

  it('leaves a query word alone when some tool has it', () => {
    const tools: ToolInput[] = [...PAGES, { name: 'relocate_vm', source: 'mcp', owner: 'cloud', description: 'Relocate a virtual machine to another host.' }];
    const query = 'relocate the page';
    expect(createCatalog(tools, { thesaurus: wordnetThesaurus() }).search(query)).toEqual(createCatalog(tools).search(query));
  });

  it('reads a two-word verb as one ("kick off"), in place of the verb alone', () => {
    const thesaurus = thesaurusOf({ 'kick off': ['start'], kick: ['boot'] });
    const tools: ToolInput[] = [
      { name: 'start_job', source: 'mcp', owner: 'jobs', description: 'Start a job now.' },
      { name: 'boot_machine', source: 'mcp', owner: 'cloud', description: 'Boot a machine.' },
      { name: 'list_jobs', source: 'mcp', owner: 'jobs', description: 'List the jobs.' },
    ];
    const catalog = createCatalog(tools, { thesaurus });
    expect(ids(catalog.search('kick off the nightly job'))).toEqual(['mcp:jobs:start_job', 'mcp:jobs:list_jobs']);
    expect(ids(catalog.search('kick the nightly job'))).toContain('mcp:cloud:boot_machine');
  });

  it('scores a relative below the word itself', () => {
    const thesaurus = thesaurusOf({ relocate: ['move'] });
    const tools: ToolInput[] = [{ name: 'move_page', source: 'mcp', owner: 'notion', description: 'Move a page.' }];
    const [relative] = createCatalog(tools, { thesaurus }).search('relocate');
    const [itself] = createCatalog(tools, { thesaurus }).search('move');
    expect(relative?.score).toBeGreaterThan(0);
    expect(relative?.score).toBeLessThan((itself?.score ?? 0) / 2);
  });

  it('through a view, expands a word that only tools the view hides have, as a catalog of its tools alone does', () => {
    const tools: ToolInput[] = [...PAGES, { name: 'relocate_vm', source: 'mcp', owner: 'cloud', description: 'Relocate a virtual machine to another host.' }];
    const thesaurus = wordnetThesaurus();
    const view = createCatalog(tools, { thesaurus }).view((tool) => tool.owner === 'notion');
    const alone = createCatalog(PAGES, { thesaurus });
    const query = 'relocate this wiki doc so it sits under Archive';
    expect(view.search(query)).toEqual(alone.search(query));
    expect(ids(view.search(query))[0]).toBe('mcp:notion:move_page');
  });

  it('reads the thesaurus only when the answer without it is weak evidence', () => {
    const thesaurus = thesaurusOf({ relocate: ['move'], mirror: ['copy'] });
    const tools: ToolInput[] = [
      ...PAGES,
      { name: 'archive_page', source: 'mcp', owner: 'notion', description: 'Archive a page so it leaves the workspace.' },
      { name: 'copy_page', source: 'mcp', owner: 'notion', description: 'Copy a page.' },
    ];
    const plain = createCatalog(tools);
    const withThesaurus = createCatalog(tools, { thesaurus });
    // Its other words answer this one: the unknown word is left unexpanded, the ranking is the plain one.
    const strong = 'archive the page of the workspace, relocate';
    expect(plain.searchWithEvidence(strong).evidence).toBe('strong');
    expect(withThesaurus.search(strong)).toEqual(plain.search(strong));
    expect(withThesaurus.explain(strong).hits.flatMap((hit) => hit.matches.map((match) => match.path))).not.toContain('thesaurus');
    // Without its relative this one is a guess; with it, a find.
    const weak = 'relocate the doc';
    expect(plain.searchWithEvidence(weak).evidence).toBe('weak');
    expect(ids(withThesaurus.search(weak))[0]).toBe('mcp:notion:move_page');
  });

  it('decides again after the catalog changes, and per view, as a catalog of its tools alone would', () => {
    const thesaurus = thesaurusOf({ mirror: ['copy'] });
    const copy: ToolInput = { name: 'copy_page', source: 'mcp', owner: 'notion', description: 'Copy a page.' };
    const archive: ToolInput = { name: 'archive_page', source: 'mcp', owner: 'notion', description: 'Archive a page on the cold shelf.' };
    const catalog = createCatalog([...PAGES, copy], { thesaurus });
    const query = 'mirror the page to the cold archive shelf';
    // Weak: "mirror" reads as "copy".
    expect(ids(catalog.search(query))[0]).toBe('mcp:notion:copy_page');
    catalog.add([archive]);
    // Strong now (archive_page has the other words): ranked as without a thesaurus.
    const plain = createCatalog([...PAGES, copy, archive]);
    expect(plain.searchWithEvidence(query).evidence).toBe('strong');
    expect(catalog.search(query)).toEqual(plain.search(query));
    // A view without archive_page is weak again, as a catalog of its tools alone.
    const view = catalog.view((tool) => tool.name !== 'archive_page');
    expect(view.search(query)).toEqual(createCatalog([...PAGES, copy], { thesaurus }).search(query));
    expect(ids(view.search(query))[0]).toBe('mcp:notion:copy_page');
    expect(catalog.search(query)).toEqual(plain.search(query));
  });

  it('rejects a thesaurus that is not one, naming the option', () => {
    let caught: unknown;
    try {
      createCatalog(PAGES, { thesaurus: { id: 'broken' } as unknown as Thesaurus });
    } catch (error) {
      caught = error;
    }
    expect(isCatalogError(caught) && caught.code).toBe('invalid_options');
    expect(isCatalogError(caught) && caught.message).toContain('`thesaurus`');
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BENCH_DATA_DIR } from '../bench/bench-options.js';
import { loadBenchSet } from '../bench/load-bench-set.js';
import { createCatalog } from './create-catalog.js';

// What the 21 real servers of realmcp answered at `initialize` (bench/data/realmcp/servers.json), summarised as the
// server map shows them: written for a reader, never boilerplate, placeholders, stems or a list of frequent words.
type Recorded = Record<string, { serverInfo?: { title?: string; description?: string }; instructions?: string }>;
const recorded = JSON.parse(readFileSync(`${BENCH_DATA_DIR}realmcp/servers.json`, 'utf8')) as Recorded;
const set = loadBenchSet(`${BENCH_DATA_DIR}realmcp`, 'realmcp');

function summaries(context: (owner: string, info: Recorded[string]) => { text: string; title?: string | undefined; description?: string | undefined }): Map<string, string> {
  const catalog = createCatalog(set.inputs);
  for (const [owner, info] of Object.entries(recorded)) catalog.setOwnerContext({ source: 'mcp', owner, ...context(owner, info) });
  return new Map(catalog.servers({ maxBytes: 100_000 }).servers.map((server) => [server.owner, server.summary]));
}

const lower = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');

describe('server summaries of the 21 recorded servers', () => {
  const withFields = summaries((_, info) => ({ text: info.instructions ?? '', title: info.serverInfo?.title, description: info.serverInfo?.description }));

  it('summarises every server in words its own texts or tool names have, without boilerplate or placeholders', () => {
    expect(withFields.size).toBe(21);
    for (const [owner, summary] of withFields) {
      const info = recorded[owner] ?? {};
      const names = set.inputs.filter((input) => input.owner === owner).map((input) => input.name);
      const own = new Set(lower(`${info.serverInfo?.description ?? ''} ${info.instructions ?? ''} ${info.serverInfo?.title ?? ''} ${names.join(' ')} tools such as`));
      expect(summary.length, owner).toBeGreaterThan(10);
      expect(summary.length, owner).toBeLessThanOrEqual(120);
      expect(summary, owner).not.toMatch(/audience|instructions are|written for|<|>|\bcwd\b|^tools to /i);
      expect(lower(summary).filter((word) => !own.has(word)), owner).toEqual([]);
    }
  });

  it('takes a description, a describing sentence of the instructions, or a title, before tool names', () => {
    expect(withFields.get('context7')).toBe('Context7 provides up-to-date documentation and code examples for libraries and frameworks.');
    expect(withFields.get('figma')).toMatch(/^Gives AI coding agents access to Figma design data/);
    expect(withFields.get('firecrawl')).toBe('Firecrawl also provides scraping, crawling, and extraction tools for working with web content.');
    expect(withFields.get('everything')).toBe('Everything Reference Server');
    expect(withFields.get('chrome-devtools')).toMatch(/^Tools such as /);
    expect(withFields.get('filesystem')).toMatch(/^Tools such as .*directory/);
  });

  it('still reads instructions and title joined into one text, as a host that passes no fields gives them', () => {
    const joined = summaries((_, info) => ({ text: [info.instructions?.trim(), info.serverInfo?.title?.trim()].filter((part) => part !== undefined && part !== '').join('\n\n') }));
    expect(joined.get('context7')).toMatch(/^Use this server to fetch current documentation/);
    expect(joined.get('firecrawl')).toBe('Firecrawl also provides scraping, crawling, and extraction tools for working with web content.');
    for (const summary of joined.values()) expect(summary).not.toMatch(/audience|instructions are|<|\bcwd\b|^tools to /i);
  });
});

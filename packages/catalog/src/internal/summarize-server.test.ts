import { describe, expect, it } from 'vitest';
import { describeServer, summarizeByToolNames, countServersByNameWord, MAX_SERVER_SUMMARY_LENGTH } from './summarize-server.js';
import type { ToolDescriptor } from '../types.js';

const tool = (owner: string, name: string): ToolDescriptor => ({
  id: `mcp:${owner}:${name}`,
  name,
  source: 'mcp',
  owner,
  description: '',
  inputSchema: { type: 'object', properties: {} },
  trusted: false,
  tags: [],
});

describe('describeServer', () => {
  it('takes the first sentence of the description first', () => {
    expect(describeServer('docs', { description: 'Docs provides library documentation. It is fast.', instructions: 'Stores things.' })).toBe('Docs provides library documentation.');
  });

  it('skips audience boilerplate and sentences that direct the model, and reads past headings', () => {
    const instructions = '# Notes Server – Server Instructions\n\nAudience: These instructions are written for an LLM or autonomous agent.\nFollow them to use the server safely.\n\nUse `save-note` before closing.\n\nThe notes server keeps short text notes in folders.';
    expect(describeServer('notes', { instructions })).toBe('The notes server keeps short text notes in folders.');
  });

  it('prefers a sentence that says what the server does to one that only names it', () => {
    const instructions = 'The user has installed Crawly as their web data provider. For search requests, use crawly_search. Crawly also provides scraping and crawling tools.';
    expect(describeServer('crawly', { instructions })).toBe('Crawly also provides scraping and crawling tools.');
  });

  it('leaves out a sentence with a placeholder, and code-quoting sentences', () => {
    expect(describeServer('figma', { instructions: 'Files are written to <server-cwd>. `get_data` reads a file. The server reads Figma design files.' })).toBe('The server reads Figma design files.');
  });

  it('uses the title when nothing describes the server, unless it only restates the name', () => {
    expect(describeServer('everything', { instructions: '## Tips\n\n- Use `x` first', title: 'Everything Reference Server' })).toBe('Everything Reference Server');
    expect(describeServer('chrome-devtools', { title: 'Chrome DevTools MCP server' })).toBe('');
    expect(describeServer('wiki', { instructions: 'Quartermaster Ledger' })).toBe('Quartermaster Ledger');
  });

  it('clips a long sentence at a word, within the summary length', () => {
    const summary = describeServer('long', { description: `Long server provides ${'many useful things '.repeat(20)}today.` });
    expect(summary.length).toBeLessThanOrEqual(MAX_SERVER_SUMMARY_LENGTH);
    expect(summary).toMatch(/things…$/);
  });
});

describe('summarizeByToolNames', () => {
  it('names the tools whose name words few other servers have, as written', () => {
    const groups = [
      { tools: ['get_file', 'list_files', 'directory_tree', 'get_info'].map((name) => tool('disk', name)) },
      { tools: ['get_info', 'list_items'].map((name) => tool('shop', name)) },
    ];
    const counts = countServersByNameWord(groups);
    expect(summarizeByToolNames('disk', (groups[0] as { tools: ToolDescriptor[] }).tools, counts, 2)).toBe('Tools such as directory_tree, get_file, list_files.');
  });
});

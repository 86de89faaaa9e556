import { describe, expect, it } from 'vitest';
import { createCatalog } from './create-catalog.js';
import type { ToolInput } from './types.js';

const tool = (owner: string, name: string, description: string, properties: Record<string, { type: string; description?: string }> = {}): ToolInput => ({
  source: 'mcp',
  owner,
  name,
  description,
  inputSchema: { type: 'object', properties },
});

const TOOLS: ToolInput[] = [
  tool('tracker', 'list_issues', 'List the issues of a repository.', { repo: { type: 'string' }, page: { type: 'number', description: 'Page number of the results' }, perPage: { type: 'number', description: 'Results per page' } }),
  tool('tracker', 'create_issue', 'Open a new issue in a repository.', { repo: { type: 'string' }, title: { type: 'string' }, body: { type: 'string' } }),
  tool('tracker', 'close_issue', 'Close an issue.', { repo: { type: 'string' }, number: { type: 'number' } }),
  tool('browser', 'browser_tabs', 'List, open, close or select a browser tab.', { action: { type: 'string', description: 'list, new, close or select' }, index: { type: 'number' } }),
  tool('browser', 'browser_navigate', 'Go to a URL in the current tab.', { url: { type: 'string' } }),
  tool('browser', 'browser_click', 'Click an element on the current page.', { element: { type: 'string', description: 'Human-readable element description' } }),
  tool('wiki', 'create_page', 'Create a wiki page with a title and content.', { title: { type: 'string' }, content: { type: 'string' } }),
  tool('wiki', 'search_pages', 'Search wiki pages by text.', { query: { type: 'string' } }),
  tool('mail', 'send_mail', 'Send an email message to recipients.', { to: { type: 'string' }, subject: { type: 'string' }, body: { type: 'string' } }),
  tool('mail', 'list_folders', 'List the mailbox folders.', {}),
];

describe('searchWithEvidence: what counts as evidence', () => {
  it('does not take a word the best hit has only in a parameter for evidence of what it does', () => {
    const catalog = createCatalog(TOOLS);
    // Every word of the request is in list_issues' paging parameters, and in nothing any tool says it does.
    const answer = catalog.searchWithEvidence('results per page');
    expect(answer.hits[0]?.id).toBe('mcp:tracker:list_issues');
    expect(answer.evidence).toBe('weak');
  });

  it('answers strong when the request names the best hit\'s server and a word of its name', () => {
    const catalog = createCatalog(TOOLS);
    const answer = catalog.searchWithEvidence('browser: switch over to the second tab of that Firefox window we used yesterday');
    expect(answer.hits[0]?.id).toBe('mcp:browser:browser_tabs');
    expect(answer.evidence).toBe('strong');
  });

  it('keeps a request whose own words describe the tool strong', () => {
    const catalog = createCatalog(TOOLS);
    expect(catalog.searchWithEvidence('send an email message').evidence).toBe('strong');
    expect(catalog.searchWithEvidence('open a new issue').evidence).toBe('strong');
  });
});

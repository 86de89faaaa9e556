import { describe, expect, it } from 'vitest';
import { createCatalog, createRankedCatalog } from './create-catalog.js';
import { DEFAULT_RANKING } from './internal/ranking-settings.js';
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

// A data-API catalog: tools named for what they return, and requests that carry names, tickers and quoted text.
const DATA_TOOLS: ToolInput[] = [
  tool('finance', 'earnings_trend', 'Retrieves the earnings trend for a given stock ticker.', { ticker: { type: 'string' } }),
  tool('finance', 'stock_quote', 'Returns the latest quote of a stock.', { symbol: { type: 'string' } }),
  tool('finance', 'earnings_calendar', 'Lists the upcoming earnings dates of companies.', { from: { type: 'string' } }),
  tool('finance', 'price_trend', 'Returns the price trend of a stock over a period.', { symbol: { type: 'string' }, days: { type: 'number' } }),
  tool('finance', 'company_profile', 'Fetches company profile data such as sector and executives.', { symbol: { type: 'string' } }),
  tool('weather', 'get_humidity', 'Fetches the humidity for a city.', { city: { type: 'string' } }),
  tool('weather', 'forecast', 'Returns the weather forecast for a city.', { city: { type: 'string' }, days: { type: 'number' } }),
  tool('text', 'is_palindrome', 'Checks whether a string is a palindrome.', { text: { type: 'string' } }),
  tool('text', 'longest_palindrome', 'Finds the longest palindrome inside a string.', { text: { type: 'string' } }),
  tool('text', 'count_words', 'Counts the words of a text.', { text: { type: 'string' } }),
  tool('music', 'list_playlists', 'Lists the playlists of a user.', { user: { type: 'string' } }),
];

describe('searchWithEvidence: a request that asks for a tool by what it is named', () => {
  it('answers strong when the request has every word of the best hit\'s name that says what it does', () => {
    const catalog = createCatalog(DATA_TOOLS);
    const answer = catalog.searchWithEvidence('for both carmakers we talked about, pull up their earnings trend over recent quarters');
    expect(answer.hits[0]?.id).toBe('mcp:finance:earnings_trend');
    expect(answer.evidence).toBe('strong');
  });

  it('does not count a generic verb of the name ("get") as a word the request must have, nor let one name word do', () => {
    const catalog = createCatalog(DATA_TOOLS);
    // get_humidity has one word that says what it does: too little to call the request a request for it.
    const answer = catalog.searchWithEvidence('how humid will the harbour be tomorrow');
    expect(answer.hits[0]?.id).toBe('mcp:weather:get_humidity');
    expect(answer.evidence).toBe('weak');
  });

  it('keeps a long request weak that has a tool\'s name words in passing but almost nothing else it asks', () => {
    const catalog = createCatalog(DATA_TOOLS);
    const answer = catalog.searchWithEvidence(
      'my grandmother who collects porcelain teapots and breeds orchids told a neighbour at the bakery near the cathedral about the earnings trend she read about in a magazine decades ago while travelling by ferry',
    );
    expect(answer.hits[0]?.id).toBe('mcp:finance:earnings_trend');
    expect(answer.coverage).toBeLessThan(0.15);
    expect(answer.evidence).toBe('weak');
  });
});

describe('searchWithEvidence: quoted text is an argument the request passes', () => {
  it('leaves quoted words no tool has out of the coverage the verdict reads', () => {
    const catalog = createCatalog(DATA_TOOLS);
    for (const request of ['check whether "Was it a car or a cat I saw" is a palindrome', "check whether 'never odd or even, said Otto' is a palindrome"]) {
      const answer = catalog.searchWithEvidence(request);
      expect(answer.hits[0]?.id, request).toBe('mcp:text:is_palindrome');
      expect(answer.evidence, request).toBe('strong');
    }
  });

  it('opens no quote at an apostrophe inside a word ("today\'s", "Otto\'s")', () => {
    const catalog = createCatalog(DATA_TOOLS);
    // Without quotes, the words stay words of the request: nothing here is quoted, so the verdict is as before.
    const answer = catalog.searchWithEvidence("check whether Otto's sister's motto from today's wedding reads as a palindrome");
    expect(answer.hits[0]?.id).toBe('mcp:text:is_palindrome');
    expect(answer.coverage).toBeLessThan(0.4);
    expect(answer.evidence).toBe('weak');
  });

  it('keeps a request weak whose quoted text is all it asks for', () => {
    // One word besides the quote: the quoted words are what is asked, as the numbers of "what is 17 plus 25" are.
    expect(createCatalog(DATA_TOOLS).searchWithEvidence("palindrome 'quantum chromodynamics lecture'").evidence).toBe('weak');
  });

  it('changes the verdict only: the hits are the same with and without the rule', () => {
    const request = 'check whether "Was it a car or a cat I saw" is a palindrome';
    const withRule = createCatalog(DATA_TOOLS).searchWithEvidence(request);
    const without = createRankedCatalog(DATA_TOOLS, {}, { ...DEFAULT_RANKING, quotedOutOfCoverage: false }).searchWithEvidence(request);
    expect(withRule.hits).toEqual(without.hits);
    expect(without.evidence).toBe('weak');
  });
});

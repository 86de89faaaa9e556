import { describe, expect, it } from 'vitest';
import { createCatalog } from './create-catalog.js';
import type { ToolInput } from './types.js';

const tool = (owner: string, name: string, description: string, params: string[] = []): ToolInput => ({
  source: 'mcp',
  owner,
  name,
  description,
  inputSchema: { type: 'object', properties: Object.fromEntries(params.map((param) => [param, { type: 'string' }])) },
});

// The firecrawl server as it lists itself (shortened), beside another crawler and a server whose tools lead with
// generic verbs.
const CRAWLERS: ToolInput[] = [
  tool('firecrawl', 'firecrawl_crawl', 'Starts a crawl job on a website and extracts content from all pages. Best for extracting content from multiple related pages when you need comprehensive coverage.', ['url', 'limit', 'maxDepth']),
  tool('firecrawl', 'firecrawl_check_crawl_status', 'Check the status of a crawl job started with firecrawl_crawl. Returns the crawl status, progress and results of the firecrawl crawl job.', ['id']),
  tool('firecrawl', 'firecrawl_scrape', 'Scrape content from a single URL with advanced options.', ['url', 'formats']),
  tool('firecrawl', 'firecrawl_map', 'Map a website to discover all indexed URLs on the site.', ['url']),
  tool('tavily', 'tavily_crawl', 'A powerful web crawler that starts a structured crawl from a base URL.', ['url', 'max_depth']),
  tool('sentry', 'find_dsns', 'Find the DSNs (client keys) of a Sentry project.', ['organizationSlug', 'projectSlug']),
  tool('sentry', 'get_issue_tag_values', 'Get the values of a tag of a Sentry issue, with counts per value.', ['issueId', 'tagKey']),
  tool('sentry', 'find_projects', 'Find the projects of a Sentry organization.', ['organizationSlug']),
];

describe('a verb that names a tool action beats a shared noun', () => {
  it('puts the tool whose name is the asked action above the one that shares the noun and leads with another action', () => {
    const hits = createCatalog(CRAWLERS).search('firecrawl start crawl', { limit: 3 });
    expect(hits[0]?.id).toBe('mcp:firecrawl:firecrawl_crawl');
    expect(hits.map((hit) => hit.id)).toContain('mcp:firecrawl:firecrawl_check_crawl_status');
  });

  it('is decided on the tools a view admits: a refused tool never lowers or lifts another', () => {
    const admits = (tool: { name: string }) => tool.name !== 'firecrawl_crawl';
    const view = createCatalog(CRAWLERS).view(admits);
    const alone = createCatalog(CRAWLERS.filter(admits));
    expect(view.search('firecrawl start crawl', { limit: 5 })).toEqual(alone.search('firecrawl start crawl', { limit: 5 }));
  });

  it('leaves a request with only a generic verb ("get") as its words rank it', () => {
    expect(createCatalog(CRAWLERS).search('sentry get project DSN client keys', { limit: 1 })[0]?.id).toBe('mcp:sentry:find_dsns');
  });
});

// A personal-assistant catalog whose requests carry values (times, dates, names) no tool has.
const ASSISTANT: ToolInput[] = [
  tool('assistant', 'AddAlarm', 'Add an alarm at a given time.', ['time', 'token']),
  tool('assistant', 'DeleteAlarm', 'Cancel an alarm: takes the timer id and the user token.', ['timer_id', 'token']),
  tool('assistant', 'ModifyAlarm', 'Modify the time of an alarm.', ['timer_id', 'time', 'token']),
  tool('assistant', 'AddReminder', 'Add a reminder with the specified content and time.', ['content', 'time', 'token']),
  tool('assistant', 'QueryStock', 'Query the price of a stock on a date.', ['stock_code', 'date']),
  tool('assistant', 'Calculator', 'Perform arithmetic calculations on an infix expression.', ['formula']),
  tool('social', 'plus_profile', 'Read a profile on the Plus social network.', ['user']),
];

describe('the weak flag and the values a request passes', () => {
  it('calls a request strong when its best hit covers every word but the values no tool has', () => {
    const catalog = createCatalog(ASSISTANT);
    for (const [request, id] of [
      ['Can you delete my alarm at 7:00 a.m. on March 16th?', 'mcp:assistant:DeleteAlarm'],
      ['Can you modify my alarm from 8:00AM to 9:00AM on March 16, 2023?', 'mcp:assistant:ModifyAlarm'],
    ] as const) {
      const answer = catalog.searchWithEvidence(request);
      expect(answer.hits[0]?.id, request).toBe(id);
      expect(answer.evidence, request).toBe('strong');
    }
  });

  it('keeps a request weak whose numbers are what it asks about', () => {
    // "what is 17 plus 25" has one word besides its numbers: the numbers are the question, not values passed.
    expect(createCatalog(ASSISTANT).searchWithEvidence('what is 17 plus 25').evidence).toBe('weak');
  });
});

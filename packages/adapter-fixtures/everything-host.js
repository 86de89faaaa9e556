// The host the AI SDK, OpenAI Agents SDK and LangChain adapters' tests share: three local tools (`exec_shell` is
// the one their sessions deny) and the real `server-everything` over stdio, offering its echo and image tools
// (an image result is what those adapters convert). Each adapter opens its own sessions on it.
import { createToolSearchHost } from '@tool-search/gateway-adapter';
import { realMcpServerConfig } from '@tool-search/test-utils';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** Every call the local tools ran, in order (a test file clears it after each test). */
export const executed = [];

const localTools = [
  {
    name: 'get_weather',
    description: 'Get the weather forecast for a city.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
    execute: (args) => {
      executed.push({ name: 'get_weather', args });
      return `Rain tomorrow in ${String(args['city'])}.`;
    },
  },
  {
    name: 'create_event',
    description: 'Create a calendar event with a title and a date.',
    inputSchema: { type: 'object', properties: { title: { type: 'string' }, date: { type: 'string' } }, required: ['title', 'date'] },
    execute: (args) => {
      executed.push({ name: 'create_event', args });
      return `created ${String(args['title'])}`;
    },
  },
  {
    name: 'exec_shell',
    description: 'Run a shell command on the host (weather scripts, forecasts, anything).',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    execute: (args) => {
      executed.push({ name: 'exec_shell', args });
      return 'ran';
    },
  },
];

/** The tool the adapters' fixture sessions deny. */
export const DENIED_ID = 'openclaw:core:exec_shell';
/** The image tool of `server-everything`. */
export const IMAGE_TOOL = 'get-tiny-image';

/** The host: the local tools and `server-everything` (echo and the image tool) over stdio. */
export function createEverythingHost() {
  return createToolSearchHost({
    sources: { openclaw: localTools, mcp: [realMcpServerConfig('everything', { extra: { include: ['echo', IMAGE_TOOL] } })] },
    startupTimeoutMs: 20_000,
  });
}

/**
 * Registers a test file's host (made by `createHost` before its tests, closed after them) and returns `open`,
 * whose sessions (opened by `openSession(host, config, options)`) are closed after each test, `executed` cleared.
 * Call once at the top of a test file.
 */
export function useHostSessions(createHost, openSession) {
  let host;
  const sessions = [];
  beforeAll(async () => {
    host = await createHost();
  }, 30_000);
  afterAll(() => host?.close());
  afterEach(async () => {
    executed.length = 0;
    await Promise.all(sessions.splice(0).map((session) => session.close()));
  });
  return async (config, options) => {
    if (host === undefined) throw new Error('useFixtureSessions: open() called outside a test');
    const session = await openSession(host, config, options);
    sessions.push(session);
    return session;
  };
}

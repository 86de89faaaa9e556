// Test fixtures the framework adapters share (a devDependency of their tests only: no file a package ships imports
// it): a host with local tools, one denied and one behind an approval the fixture's provider refuses, whose sessions
// a test file opens with `useFixtureSessions()` (ADK, Mastra). `./everything-host` is the host with a real MCP server
// the AI SDK, OpenAI Agents and LangChain tests open their sessions on. A private package of packages/ (not tooling):
// it imports gateway-adapter and policy, and sits in the layers between gateway-adapter and the adapters whose tests use it.
import { createToolSearchHost } from '@tool-search/gateway-adapter';
import { createPolicy } from '@tool-search/policy';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** Every call the local tools ran, in order. */
export const executed = [];

const tool = (name, description, properties, required) => ({
  name,
  description,
  inputSchema: { type: 'object', properties, required },
  execute: (args) => {
    executed.push({ name, args });
    return name === 'get_weather' ? `Rain tomorrow in ${String(args['city'])}.` : `${name} done`;
  },
});

const localTools = [
  tool('get_weather', 'Get the weather forecast for a city.', { city: { type: 'string' } }, ['city']),
  tool('create_event', 'Create a calendar event with a title and a date.', { title: { type: 'string' }, date: { type: 'string' } }, ['title', 'date']),
  tool('delete_file', 'Delete a file from the workspace.', { path: { type: 'string' } }, ['path']),
  tool('exec_shell', 'Run a shell command on the host (weather scripts, forecasts, anything).', { command: { type: 'string' } }, ['command']),
];

/** The denied tool: every session of the fixture host denies it. */
export const DENIED_ID = 'openclaw:core:exec_shell';
/** The tool behind an approval: the fixture's approval provider refuses every call. */
export const APPROVAL_ID = 'openclaw:core:delete_file';

/** Every approval the fixture's provider was asked for (it refuses them all). */
export const approvalsAsked = [];

const policy = createPolicy(
  { deny: ['exec_shell'], requireApproval: ['delete_file'] },
  {
    approvals: {
      requestApproval: ({ tool: asked }) => {
        approvalsAsked.push(asked.id);
        return { decision: 'deny', reason: 'the user said no' };
      },
    },
  },
);

/** Registers a test file's fixture host and returns `open`, whose sessions are closed after each test. */
export function useFixtureSessions() {
  let host;
  const sessions = [];
  beforeAll(async () => {
    host = await createToolSearchHost({ sources: { openclaw: localTools } });
  });
  afterAll(() => host?.close());
  afterEach(async () => {
    executed.length = 0;
    approvalsAsked.length = 0;
    await Promise.all(sessions.splice(0).map((session) => session.close()));
  });
  return async (config, options = {}) => {
    if (host === undefined) throw new Error('useFixtureSessions: open() called outside a test');
    const session = await host.openSession({ config, policy, ...options });
    sessions.push(session);
    return session;
  };
}

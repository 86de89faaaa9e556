// A host of one session, for a single run: created with it (it waits for every MCP server's first start), closed with it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRootLogger, createToolSearchSession } from '@tool-search/gateway-adapter';

// A plugin is a module that exports its tools (written out here, so that the example is one file).
const dir = mkdtempSync(join(tmpdir(), 'plugins-'));
writeFileSync(join(dir, 'calendar.mjs'), "export const tools = [{ name: 'list_events', description: 'List the calendar events of a day.', execute: ({ day }) => `Standup at 9 on ${day}.` }];\n");

const session = await createToolSearchSession({
  config: { mode: 'tools' }, // true | false | { mode, codeTimeoutMs, ... }
  policy: { deny: ['group:runtime'] }, // a PolicyConfig, or a Policy from createPolicy
  context: { agentId: 'main', isOwner: false },
  sources: {
    plugins: [join(dir, 'calendar.mjs')], // and mcp: [{ name: 'github', transport: 'stdio', command: 'github-mcp' }]
    client: [{ name: 'show_toast', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }],
  },
  logger: createRootLogger({ level: 'warn' }),
});
const { tools, instructions } = session.surface('anthropic');
console.log(tools.map((tool) => tool.name), instructions.length > 0);
// for every tool call the model makes:
const search = await session.execute({ name: 'tool_search', args: { query: 'calendar events of a day' }, toolCallId: 'c1' });
console.log(search.status, JSON.parse(search.content).map((hit) => hit.id)); // the hits, best first
const outcome = await session.execute({ name: 'tool_call', args: { id: 'plugin:calendar:list_events', args: { day: 'Monday' } }, toolCallId: 'c2' });
console.log(outcome.status, outcome.content);
await session.close();

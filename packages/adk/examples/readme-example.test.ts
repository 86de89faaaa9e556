// The README's example, run as a test: the code between the `readme` markers is the README's code block (the last
// test checks they are the same text); `coreTools` and `model` come from example-setup.ts.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { coreTools, model, ran } from './example-setup.js';
// #region readme
import { InMemoryRunner, LlmAgent, stringifyContent, type Event } from '@google/adk';
import { ToolSearchToolset } from '@tool-search/adk';
import { createToolSearchHost } from '@tool-search/gateway-adapter';
import { createPolicy } from '@tool-search/policy';

const host = await createToolSearchHost({ sources: { openclaw: coreTools } }); // once per process
const policy = createPolicy({ deny: ['exec_shell'] });

async function ask(toolset: ToolSearchToolset, text: string): Promise<Event[]> {
  const agent = new LlmAgent({ name: 'assistant', model, instruction: toolset.instruction, tools: [toolset] });
  const runner = new InMemoryRunner({ agent, appName: 'assistant' });
  const { id } = await runner.sessionService.createSession({ appName: 'assistant', userId: 'u1' });
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: 'u1', sessionId: id, newMessage: { role: 'user', parts: [{ text }] } })) events.push(event);
  return events;
}

// Deferral, which Gemini lacks: tool_search loads its hits (kept in the ADK session's state), called by name.
const direct = await host.openSession({ config: { native: true }, policy });
const first = await ask(new ToolSearchToolset(direct), 'Will it rain in Paris?');

// Or the session's mode as tools (tools mode: tool_search, tool_describe, tool_call).
const session = await host.openSession({ config: { mode: 'tools' }, policy });
const second = await ask(new ToolSearchToolset(session), 'Will it rain in Paris?');
await host.close(); // closes its sessions too
// #endregion readme

it('runs the README example', () => {
  const answer = (events: Event[]): string => stringifyContent(events.at(-1) as Event);
  expect([answer(first), answer(second)]).toEqual(['Yes, it will rain.', 'Yes, it will rain.']);
  expect(ran).toEqual(['get_weather Paris', 'get_weather Paris']);
  expect(model.requests).toHaveLength(6);
  expect(JSON.stringify(model.requests)).not.toContain('exec_shell');
  expect(direct.telemetry().counts.searches).toBe(1);
  expect(session.telemetry().calls.map((record) => record.toolId)).toEqual(['openclaw:core:get_weather']);
});

it('is the code block of the README', () => {
  const source = readFileSync(new URL('./readme-example.test.ts', import.meta.url), 'utf8');
  const code = /\/\/ #region readme\n([\s\S]*?)\n\/\/ #endregion readme/.exec(source)?.[1];
  expect(code).toBeDefined();
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  expect(readme).toContain(`\`\`\`ts\n${code}\n\`\`\``);
});

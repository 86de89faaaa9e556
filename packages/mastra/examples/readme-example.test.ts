// The README's example, run as a test: the code between the `readme` markers is the README's code block (the last
// test checks they are the same text); `coreTools` and `model` come from example-setup.ts.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { coreTools, mock, model, ran } from './example-setup.js';
// #region readme
import { Agent } from '@mastra/core/agent';
import { ToolSearchSessionProcessor } from '@tool-search/mastra';
import { createToolSearchHost } from '@tool-search/gateway-adapter';
import { createPolicy } from '@tool-search/policy';

const host = await createToolSearchHost({ sources: { openclaw: coreTools } }); // once per process
const policy = createPolicy({ deny: ['exec_shell'] });

// Mastra's ToolSearchProcessor contract (search_tools, load_tool), ranked by our catalog under our policy; the
// loaded set is read from the conversation's messages.
const direct = await host.openSession({ config: { native: true }, policy });
const agent = new Agent({ id: 'assistant', name: 'Assistant', instructions: 'Help the user.', model, inputProcessors: [new ToolSearchSessionProcessor(direct)] });
const first = await agent.generate('Will it rain in Paris?', { maxSteps: 5 });

// Or the session's mode as the agent's tools (tools mode: tool_search, tool_describe, tool_call).
const session = await host.openSession({ config: { mode: 'tools' }, policy });
const inModes = new Agent({ id: 'assistant', name: 'Assistant', instructions: 'Help the user.', model, inputProcessors: [new ToolSearchSessionProcessor(session)] });
const second = await inModes.generate('Will it rain in Paris?', { maxSteps: 5 });
await host.close(); // closes its sessions too
// #endregion readme

it('runs the README example', () => {
  expect([first.text, second.text]).toEqual(['Yes, it will rain.', 'Yes, it will rain.']);
  expect(ran).toEqual(['get_weather Paris', 'get_weather Paris']);
  expect(mock.doGenerateCalls).toHaveLength(7);
  expect(JSON.stringify(mock.doGenerateCalls.map((call) => [call.tools, call.prompt]))).not.toContain('exec_shell');
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

// The README's example, run as a test: the code between the `readme` markers is the README's code block (the last
// test checks they are the same text); `coreTools` and `model` come from example-setup.ts.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { coreTools, model, ran } from './example-setup.js';
// #region readme
import { createAgent, tool } from 'langchain';
import { toClientTools, toolSearchMiddleware } from '@tool-search/langchain';
import { createToolSearchHost } from '@tool-search/gateway-adapter';
import { createPolicy } from '@tool-search/policy';
import { z } from 'zod';

const host = await createToolSearchHost({ sources: { openclaw: coreTools } }); // once per process
const policy = createPolicy({ deny: ['exec_shell'] });

// The agent's own tools are the session's client tools: always visible, gated by the same policy.
const showToast = tool(({ text }) => `shown: ${text}`, { name: 'show_toast', description: 'Show a toast in the UI.', schema: z.object({ text: z.string() }) });
const session = await host.openSession({ config: { mode: 'tools' }, policy, client: toClientTools([showToast]) });

const agent = createAgent({ model, tools: [showToast], middleware: [toolSearchMiddleware(session)] });
const result = await agent.invoke({ messages: [{ role: 'user', content: 'Will it rain in Paris?' }] });
await host.close(); // closes its sessions too
// #endregion readme

it('runs the README example', () => {
  expect(result.messages.at(-1)?.text).toBe('Yes, it will rain.');
  expect(ran).toEqual(['get_weather Paris']);
  expect(result.messages.filter((message) => message.getType() === 'tool').map((message) => message.text)).toEqual([
    expect.stringContaining('openclaw:core:get_weather'),
    'Rain tomorrow.',
    'shown: Rain in Paris tomorrow',
  ]);
  expect(model.callCount).toBe(4);
  expect(JSON.stringify(model.calls.map((call) => call.messages))).not.toContain('exec_shell');
  expect(session.telemetry().calls.map((record) => record.toolId)).toEqual(['openclaw:core:get_weather', 'client:client:show_toast']);
});

it('is the code block of the README', () => {
  const source = readFileSync(new URL('./readme-example.test.ts', import.meta.url), 'utf8');
  const code = /\/\/ #region readme\n([\s\S]*?)\n\/\/ #endregion readme/.exec(source)?.[1];
  expect(code).toBeDefined();
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  expect(readme).toContain(`\`\`\`ts\n${code}\n\`\`\``);
});

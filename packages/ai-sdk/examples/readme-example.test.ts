// The README's example, run as a test: the code between the `readme` markers is the README's code block (the last
// test checks they are the same text); `coreTools` and `model` come from example-setup.ts.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { coreTools, model, ran } from './example-setup.js';
// #region readme
import { toolSearchFor, toolSearchTools } from '@tool-search/ai-sdk';
import { createToolSearchHost } from '@tool-search/gateway-adapter';
import { createPolicy } from '@tool-search/policy';
import { generateText, stepCountIs } from 'ai';

const host = await createToolSearchHost({ sources: { openclaw: coreTools } }); // once per process
const policy = createPolicy({ deny: ['exec_shell'] });
const prompt = 'Will it rain in Paris tomorrow?';

// The session's mode as AI SDK tools (tools mode: tool_search, tool_describe, tool_call).
const session = await host.openSession({ config: { mode: 'tools' }, policy });
const surface = session.modelSurface();
const tools = toolSearchTools(session, { surface });
const first = await generateText({ model, system: surface.instructions, tools, stopWhen: stepCountIs(8), prompt });

// Or the AI SDK's own deferral (deferLoading + toolSearch), ranked by our catalog under the same policy.
const direct = await host.openSession({ config: { native: true }, policy });
const second = await generateText({ model, tools: toolSearchFor(direct), stopWhen: stepCountIs(8), prompt });
await host.close(); // closes its sessions too
// #endregion readme

it('runs the README example', () => {
  expect([first.text, second.text]).toEqual(['Yes, it will rain.', 'Yes, it will rain.']);
  expect(ran).toEqual(['get_weather Paris', 'get_weather Paris']);
  expect(model.doGenerateCalls).toHaveLength(6);
  expect(JSON.stringify(model.doGenerateCalls.map((request) => request.tools))).not.toContain('exec_shell');
  expect(session.telemetry().calls.map((record) => record.toolId)).toEqual(['openclaw:core:get_weather']);
  expect(direct.telemetry().counts.searches).toBe(1);
});

it('is the code block of the README', () => {
  const source = readFileSync(new URL('./readme-example.test.ts', import.meta.url), 'utf8');
  const code = /\/\/ #region readme\n([\s\S]*?)\n\/\/ #endregion readme/.exec(source)?.[1];
  expect(code).toBeDefined();
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  expect(readme).toContain(`\`\`\`ts\n${code}\n\`\`\``);
});

// What a tools-mode `tool_search` call answers, taken from the real path: a gateway-adapter host whose MCP servers
// replay a benchmark set's tools (one stdio replay server per `source`, listed with the official MCP SDK), and a
// tools-mode session that executes the call as a model's tool call. The answer is the text the model would read.
// Needs @tool-search/gateway-adapter built (`pnpm bench:retrieval` builds it first).
import { REPLAY_MCP_SERVER_PATH } from '@tool-search/test-utils';
import type { BenchModelQuery, BenchTool } from './load-bench-set.js';

const replayServer = REPLAY_MCP_SERVER_PATH;

/** The answer text of each `tool_search` call (args as a model sends them), in order. */
export async function toolsModeAnswers(toolsFile: string, tools: readonly BenchTool[], calls: ReadonlyArray<BenchModelQuery['args']>): Promise<string[]> {
  const { createToolSearchHost } = await import('@tool-search/gateway-adapter');
  const sources = [...new Set(tools.map((tool) => tool.source))].sort();
  const host = await createToolSearchHost({
    sources: {
      mcp: sources.map((source) => ({ name: source, transport: 'stdio' as const, command: process.execPath, args: [replayServer], env: { REPLAY_TOOLS_FILE: toolsFile, REPLAY_SOURCE: source } })),
    },
    startupTimeoutMs: 120_000,
  });
  try {
    const session = await host.openSession({ config: { mode: 'tools' } });
    const answers: string[] = [];
    for (const [index, args] of calls.entries()) {
      const outcome = await session.execute({ name: 'tool_search', args, toolCallId: `bench-${index}` });
      if (outcome.status !== 'ok') throw new Error(`tool_search ${JSON.stringify(args)} answered ${outcome.status}: ${outcome.content.slice(0, 300)}`);
      answers.push(outcome.content);
    }
    await session.close();
    return answers;
  } finally {
    await host.close();
  }
}

/**
 * A test of whether an answer names one of these tools (`<server>:<name>` bench ids) so that a model could call or
 * describe it: its catalog id `mcp:<server>:<name>`, or both its server and its name as whole words (as a map that
 * lists each server's tool names under the server would).
 */
export function answerNames(ids: readonly string[]): (answer: string) => boolean {
  const word = (text: string) => new RegExp(`(?<![\\w.-])${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`);
  const matchers = ids.map((id) => {
    const colon = id.indexOf(':');
    return { id: `mcp:${id}`, server: word(id.slice(0, colon)), name: word(id.slice(colon + 1)) };
  });
  return (answer) => matchers.some((matcher) => answer.includes(matcher.id) || (matcher.name.test(answer) && matcher.server.test(answer)));
}

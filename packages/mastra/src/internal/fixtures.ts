// Test fixtures: Mastra's own mock model (`MastraLanguageModelV2Mock` from `@mastra/core/test-utils/llm-mock`)
// answering each step from a script and keeping every call, and runs through Mastra's own `Agent` loop. The fixture
// host (local tools, one denied, one behind an approval) is `@tool-search/adapter-fixtures`.
import { Agent, type ToolsInput } from '@mastra/core/agent';
import { MastraLanguageModelV2Mock } from '@mastra/core/test-utils/llm-mock';
import type { ToolSearchSessionProcessor } from '../tool-search-session-processor.js';

/** One scripted model step: tool calls (name and input), or a final text. */
export type ScriptedStep = { calls: Array<{ name: string; input: Record<string, unknown> }> } | { text: string };

/** The model call options Mastra's mock recorded (the prompt and the declared tools). */
export type ModelCall = MastraLanguageModelV2Mock['doGenerateCalls'][number];

let calls = 0;

/** Mastra's mock model, answering each step with the next scripted step. */
export function scriptedModel(steps: ScriptedStep[]): MastraLanguageModelV2Mock {
  const queue = [...steps];
  return new MastraLanguageModelV2Mock({
    doGenerate: async () => {
      const step = queue.shift();
      if (step === undefined) throw new Error('scriptedModel: no scripted step left');
      const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
      if ('text' in step) return { content: [{ type: 'text', text: step.text }], finishReason: 'stop', usage, warnings: [] };
      const content = step.calls.map((call) => ({ type: 'tool-call' as const, toolCallId: `call-${++calls}`, toolName: call.name, input: JSON.stringify(call.input) }));
      return { content, finishReason: 'tool-calls', usage, warnings: [] };
    },
  });
}

/** The tool names one model call declared, sorted. */
export function declaredNames(call: ModelCall | undefined): string[] {
  return (call?.tools ?? []).map((tool) => tool.name).sort();
}

/** The tool results one model call's prompt carried, in order (name and output). */
export function toolResults(call: ModelCall | undefined): Array<{ toolName: string; output: unknown }> {
  return (call?.prompt ?? []).flatMap((message) =>
    message.role === 'tool' ? message.content.flatMap((part) => (part.type === 'tool-result' ? [{ toolName: part.toolName, output: part.output }] : [])) : [],
  );
}

/** The system text one model call's prompt carried. */
export function systemText(call: ModelCall | undefined): string {
  return (call?.prompt ?? []).flatMap((message) => (message.role === 'system' ? [message.content] : [])).join('\n');
}

/** A Mastra agent with the processor as its input processor and the scripted model. */
export function agentWith(processor: ToolSearchSessionProcessor, model: MastraLanguageModelV2Mock, tools: ToolsInput = {}): Agent {
  // Mastra's mock is typed for a tsconfig without exactOptionalPropertyTypes (its doGenerate may resolve
  // `response: undefined`), which this repository turns on; at run time it is the model interface Agent takes.
  const asModel = model as unknown as ConstructorParameters<typeof Agent>[0]['model'];
  return new Agent({ id: 'assistant', name: 'assistant', instructions: 'You are a helpful assistant.', model: asModel, tools, inputProcessors: [processor] });
}

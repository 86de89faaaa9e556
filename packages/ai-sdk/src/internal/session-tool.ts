// One declared tool of a session as an AI SDK tool: its call goes through `session.execute`.
import type { ModelSurface, ToolCallOutcome, ToolSearchSession } from '@tool-search/gateway-adapter';
import { dynamicTool, jsonSchema, type JSONSchema7, type Tool } from 'ai';
import { toToolResultOutput, type ToolResultOutput } from '../to-tool-result-output.js';

/** One tool of a session's provider-neutral surface. */
export type SessionModelTool = ModelSurface['tools'][number];

const OUTCOME_STATUSES: ReadonlySet<unknown> = new Set<ToolCallOutcome['status']>(['ok', 'blocked', 'error', 'client']);

// The output reaches `toModelOutput` from this execute, or back from stored UI messages (as JSON): read it as an
// outcome only when it has an outcome's status and text.
function isOutcome(output: unknown): output is ToolCallOutcome {
  if (typeof output !== 'object' || output === null) return false;
  const { status, content } = output as { status?: unknown; content?: unknown };
  return OUTCOME_STATUSES.has(status) && typeof content === 'string';
}

function modelOutput(output: unknown): ToolResultOutput {
  return isOutcome(output) ? toToolResultOutput(output) : { type: 'text', value: JSON.stringify(output) ?? '' };
}

/**
 * The AI SDK tool for `modelTool`. Client tools get no `execute`: the SDK ends the step and hands their calls to
 * the caller, as for any client tool. Every other call runs `session.execute` (policy, validation, the tool) and
 * its outcome is the tool's output, rendered for the model by `toToolResultOutput`.
 */
export function sessionTool(session: ToolSearchSession, modelTool: SessionModelTool, options: { deferLoading: boolean }): Tool {
  const declared = {
    description: modelTool.description,
    // The surface's schemas are JSON Schema objects (`type: 'object'` at the top); JSONSchema7 is the SDK's static
    // view of that same JSON, which a `Record<string, unknown>` cannot prove. The session validates the arguments.
    inputSchema: jsonSchema(modelTool.inputSchema as JSONSchema7),
    ...(options.deferLoading ? { deferLoading: true } : {}),
  };
  if (modelTool.kind === 'client') return dynamicTool(declared);
  return dynamicTool({
    ...declared,
    execute: (input, { toolCallId, abortSignal }) =>
      session.execute({ name: modelTool.name, args: input, toolCallId }, abortSignal === undefined ? {} : { signal: abortSignal }),
    toModelOutput: ({ output }) => modelOutput(output),
  });
}

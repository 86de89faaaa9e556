// One declared tool of a session as an Agents SDK function tool: its call goes through `session.execute`.
import { tool, type FunctionTool } from '@openai/agents';
import type { ClientOutcome, ModelSurface, ToolSearchSession } from '@tool-search/gateway-adapter';
import { toAgentToolOutput, type AgentToolOutput } from '../to-agent-tool-output.js';
import { nonStrictParameters, strictParameters, type NonStrictParameters, type StrictParameters } from './agent-parameters.js';

/** One tool of a session's provider-neutral surface. */
export type SessionModelTool = ModelSurface['tools'][number];

/** A function tool made from a session's tool (strict or non-strict parameters). */
export type SessionFunctionTool = FunctionTool<unknown, StrictParameters, unknown> | FunctionTool<unknown, NonStrictParameters, unknown>;

/** Runs a client tool call the session authorised (`call.args` are final); what it returns is the tool's output. */
export type ClientCallHandler = (call: ClientOutcome) => AgentToolOutput | Promise<AgentToolOutput>;

let anonymousCalls = 0;

/**
 * The function tool for `modelTool`: `session.execute` with the SDK's call id and abort signal; a `client`
 * outcome goes to `onClientCall`, any other is rendered by `toAgentToolOutput`. A control tool whose schema is
 * strict as it stands is declared strict; every other tool non-strict.
 */
export function sessionFunctionTool(
  session: ToolSearchSession,
  modelTool: SessionModelTool,
  options: { deferLoading: boolean; onClientCall: ClientCallHandler | undefined },
): SessionFunctionTool {
  const execute = async (input: unknown, _context?: unknown, details?: { toolCall?: { callId: string }; signal?: AbortSignal }): Promise<AgentToolOutput> => {
    const toolCallId = details?.toolCall?.callId ?? `agents-call-${++anonymousCalls}`;
    const outcome = await session.execute({ name: modelTool.name, args: input, toolCallId }, details?.signal === undefined ? {} : { signal: details.signal });
    if (outcome.status === 'client' && options.onClientCall !== undefined) return options.onClientCall(outcome);
    return toAgentToolOutput(outcome);
  };
  const declared = { name: modelTool.name, description: modelTool.description, ...(options.deferLoading ? { deferLoading: true } : {}), execute };
  const strict = modelTool.kind === 'control' ? strictParameters(modelTool.inputSchema) : undefined;
  if (strict !== undefined) return tool({ ...declared, parameters: strict, strict: true });
  return tool({ ...declared, parameters: nonStrictParameters(modelTool.inputSchema), strict: false });
}

// One tool of a session's surface as an ADK tool: declared with its JSON Schema, every call through `session.execute`.
import { BaseTool, type Context, type RunAsyncToolRequest } from '@google/adk';
import type { ClientOutcome, ModelSurface, ToolCallOutcome, ToolSearchSession } from '@tool-search/gateway-adapter';
import { toFunctionResponse } from '../to-function-response.js';

/** One tool of a session's provider-neutral surface. */
export type SessionModelTool = ModelSurface['tools'][number];

/** What ADK's `_getDeclaration` returns (Gemini's `FunctionDeclaration`), named without importing `@google/genai`. */
export type FunctionDeclarationOf = NonNullable<ReturnType<BaseTool['_getDeclaration']>>;

/**
 * Runs a client tool call the session authorised (`call.args` are final); what it returns is the function
 * response the model reads (an object, or a value ADK wraps as `{ result }`).
 */
export type ClientCallHandler = (call: ClientOutcome, toolContext: Context) => unknown;

let anonymousCalls = 0;

/** The call id ADK gave the model's function call, or a local one when it gave none. */
export function callIdOf(toolContext: Context): string {
  return toolContext.functionCallId ?? `adk-call-${++anonymousCalls}`;
}

/**
 * An ADK tool for one surface tool: its name, description and JSON Schema (`parametersJsonSchema`, so Gemini
 * receives the schema as written), and a `runAsync` that runs the call through `session.execute` with ADK's
 * function call id and abort signal (policy, hooks, approvals, argument validation, the tool, telemetry, the log).
 */
export class SessionTool extends BaseTool {
  constructor(
    private readonly session: ToolSearchSession,
    private readonly modelTool: SessionModelTool,
    private readonly onClientCall: ClientCallHandler | undefined,
  ) {
    super({ name: modelTool.name, description: modelTool.description });
  }

  override _getDeclaration(): FunctionDeclarationOf {
    return { name: this.name, description: this.description, parametersJsonSchema: this.modelTool.inputSchema };
  }

  override async runAsync({ args, toolContext }: RunAsyncToolRequest): Promise<unknown> {
    const signal = toolContext.abortSignal;
    const outcome: ToolCallOutcome = await this.session.execute({ name: this.modelTool.name, args, toolCallId: callIdOf(toolContext) }, signal === undefined ? {} : { signal });
    if (outcome.status === 'client' && this.onClientCall !== undefined) return this.onClientCall(outcome, toolContext);
    return toFunctionResponse(outcome);
  }
}

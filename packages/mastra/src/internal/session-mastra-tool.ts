// One tool of a session's surface as a Mastra tool: declared with its JSON Schema, every call through `session.execute`.
import { createTool } from '@mastra/core/tools';
import type { ClientOutcome, ModelSurface, ToolSearchSession } from '@tool-search/gateway-adapter';

/** One tool of a session's provider-neutral surface. */
export type SessionModelTool = ModelSurface['tools'][number];

/** Runs a client tool call the session authorised (`call.args` are final); what it returns is the tool's result. */
export type ClientCallHandler = (call: ClientOutcome) => unknown;

/** The schema type `createTool` takes (a JSON Schema is one of its forms). */
type ToolInputSchema = NonNullable<Parameters<typeof createTool>[0]['inputSchema']>;

let anonymousCalls = 0;

const admitsNull = (property: unknown): boolean => {
  if (typeof property !== 'object' || property === null) return false;
  const { type, anyOf } = property as { type?: unknown; anyOf?: unknown };
  return type === 'null' || (Array.isArray(type) && type.includes('null')) || (Array.isArray(anyOf) && anyOf.some(admitsNull));
};

/**
 * The schema Mastra declares and validates calls against: the surface's, with a property that admits null no longer
 * required. A strict-shaped schema (every property required, absent ones sent as null) is what a strict provider
 * fills in, but Mastra validates every call against the schema itself, and a model that is not held to it sends
 * `tool_search({ query })` alone; the session reads an absent argument as it reads null, so both must pass.
 */
export function withNullableOptional(schema: SessionModelTool['inputSchema']): SessionModelTool['inputSchema'] {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  if (!Array.isArray(schema.required)) return schema;
  const required = schema.required.filter((key) => !admitsNull(properties[key]));
  return required.length === schema.required.length ? schema : { ...schema, required };
}

/**
 * A Mastra tool for one surface tool: its name as the tool id, its description and JSON Schema as written, and an
 * `execute` that runs the call through `session.execute` with Mastra's tool call id and abort signal (policy, hooks,
 * approvals, argument validation, the tool, telemetry, the session log). The result is the session's model-facing
 * text; a `client` outcome goes to `onClientCall`.
 */
export function sessionMastraTool(session: ToolSearchSession, modelTool: SessionModelTool, onClientCall: ClientCallHandler | undefined) {
  return createTool({
    id: modelTool.name,
    description: modelTool.description,
    inputSchema: withNullableOptional(modelTool.inputSchema) as ToolInputSchema,
    execute: async (input, context) => {
      const toolCallId = context.agent?.toolCallId ?? `mastra-call-${++anonymousCalls}`;
      const signal = context.abortSignal;
      const outcome = await session.execute({ name: modelTool.name, args: input, toolCallId }, signal === undefined ? {} : { signal });
      if (outcome.status === 'client' && onClientCall !== undefined) return onClientCall(outcome);
      return outcome.content;
    },
  });
}

// The mock provider's declarative script: a table of request matchers and the reply each one gives, and the
// resolver that picks the answering row for a request.

/** The wire formats the mock provider speaks. */
export type ProviderApi = 'responses' | 'chat' | 'anthropic';

/** A function tool as the mock provider sees it in a request, whichever wire format carried it. */
export interface DeclaredTool {
  name: string;
  description: string;
  parameters: unknown;
  /** OpenAI Responses: the namespace the function is declared in. */
  namespace?: string;
  /** Declared with `defer_loading: true`: the model sees it only once the conversation loaded it. */
  deferred: boolean;
  /** A deferred tool the conversation loaded (a `tool_search_output`, or a `tool_reference` the API expanded). */
  loaded: boolean;
}

/**
 * A result the request carries back to the model for one of its calls: a `function_call_output`, a `tool`
 * message, an Anthropic `tool_result`, or (OpenAI Responses) the `tool_search_output` answering a
 * `tool_search_call`, whose tool name is `tool_search`.
 */
export interface ToolResultMessage {
  callId: string;
  /** The name of the tool whose call produced it, when the request still holds that call. */
  toolName: string | undefined;
  output: string;
  /** The deferred tools this result loads (`tool_search_output` definitions, `tool_reference` blocks). */
  loadedTools?: string[];
}

/** What a script rule matches against: one provider request, normalised across wire formats. */
export interface ProviderRequestView {
  api: ProviderApi;
  model: string;
  stream: boolean;
  instructions: string;
  userText: string;
  /** The tools the model can call now: declared without deferral, or deferred and loaded. */
  tools: DeclaredTool[];
  /** Declared deferred tools the conversation has not loaded (the model cannot call them yet). */
  deferredTools: DeclaredTool[];
  /** OpenAI Responses: the request declares a client-executed `tool_search` tool. */
  declaresToolSearch: boolean;
  toolResults: ToolResultMessage[];
}

/**
 * When a rule applies. Every given field must hold. Regular expressions may use named groups; the groups
 * become template variables for the reply (`{{name}}`); `{{lastOutput}}` is the latest tool result (cut at
 * 400 characters).
 */
export interface RequestMatcher {
  /** The request came over this wire format. */
  api?: ProviderApi;
  /** Exactly this many tool results are in the request. */
  toolResults?: number;
  /** At least this many tool results are in the request. */
  minToolResults?: number;
  /** The instructions (system text) match. */
  instructions?: RegExp;
  /** Some tool the model can call has a name that matches; its name becomes `{{declaredTool}}`. */
  declaresTool?: RegExp;
  /** No tool the model can call has a name that matches. */
  lacksTool?: RegExp;
  /** `true`: the request declares deferred tools not loaded yet; `false`: none. */
  defersTools?: boolean;
  /** OpenAI Responses: the request declares (or does not declare) a client-executed `tool_search` tool. */
  declaresToolSearch?: boolean;
  /** The latest tool result loaded a tool whose name matches; its name becomes `{{loadedTool}}`. */
  loadedTool?: RegExp;
  /** The latest tool result came from a tool whose name matches. */
  lastToolName?: RegExp;
  /** The latest tool result's text matches. */
  lastToolResult?: RegExp;
  /** The latest tool result's text does not match. */
  lastToolResultLacks?: RegExp;
  /** The user's text matches. */
  userText?: RegExp;
}

/** One tool call in a reply; string leaves of `arguments` are templates. */
export interface ScriptToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * What a rule answers: tool calls, final assistant text (a template), or (OpenAI Responses) a call of the
 * request's client-executed tool search with these arguments (string leaves are templates).
 */
export type ScriptReply = { toolCalls: ScriptToolCall[] } | { text: string } | { toolSearch: Record<string, unknown> };

/** One row of the script table. The first row whose matcher holds answers the request. */
export interface ScriptRule {
  /** A short name, recorded with the request so a test can tell which row answered. */
  id: string;
  when: RequestMatcher;
  reply: ScriptReply;
}

/** The reply a rule produced for one request, with its templates filled in. */
export interface ResolvedReply {
  ruleId: string;
  toolCalls: Array<{ name: string; arguments: string }>;
  text: string | undefined;
  /** The arguments of a provider tool search call (OpenAI Responses `tool_search_call`). */
  toolSearch: Record<string, unknown> | undefined;
}

function test(pattern: RegExp, value: string, captures: Record<string, string>): boolean {
  const match = pattern.exec(value);
  if (!match) return false;
  Object.assign(captures, match.groups ?? {});
  return true;
}

function matchRule(when: RequestMatcher, view: ProviderRequestView): Record<string, string> | undefined {
  const captures: Record<string, string> = {};
  const last = view.toolResults.at(-1);
  if (when.api !== undefined && view.api !== when.api) return undefined;
  if (when.toolResults !== undefined && view.toolResults.length !== when.toolResults) return undefined;
  if (when.minToolResults !== undefined && view.toolResults.length < when.minToolResults) return undefined;
  if (when.defersTools !== undefined && view.deferredTools.length > 0 !== when.defersTools) return undefined;
  if (when.declaresToolSearch !== undefined && view.declaresToolSearch !== when.declaresToolSearch) return undefined;
  if (when.instructions && !test(when.instructions, view.instructions, captures)) return undefined;
  // Always available: the latest tool result, cut short, for replies that quote it.
  if (last) captures.lastOutput = last.output.slice(0, 400);
  if (when.declaresTool) {
    const pattern = when.declaresTool;
    const tool = view.tools.find((candidate) => pattern.test(candidate.name));
    if (!tool) return undefined;
    test(pattern, tool.name, captures);
    captures.declaredTool = tool.name;
  }
  if (when.lacksTool) {
    const pattern = when.lacksTool;
    if (view.tools.some((candidate) => pattern.test(candidate.name))) return undefined;
  }
  if (when.loadedTool) {
    const pattern = when.loadedTool;
    const name = last?.loadedTools?.find((candidate) => pattern.test(candidate));
    if (name === undefined) return undefined;
    test(pattern, name, captures);
    captures.loadedTool = name;
  }
  if (when.lastToolName && !(last?.toolName !== undefined && test(when.lastToolName, last.toolName, captures))) {
    return undefined;
  }
  if (when.lastToolResult && !(last && test(when.lastToolResult, last.output, captures))) return undefined;
  if (when.lastToolResultLacks && last && when.lastToolResultLacks.test(last.output)) return undefined;
  if (when.userText && !test(when.userText, view.userText, captures)) return undefined;
  return captures;
}

function fill(template: string, captures: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => captures[key] ?? whole);
}

function fillValue(value: unknown, captures: Record<string, string>): unknown {
  if (typeof value === 'string') return fill(value, captures);
  if (Array.isArray(value)) return value.map((item) => fillValue(item, captures));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillValue(item, captures)]));
  }
  return value;
}

/**
 * Finds the first rule that matches the request and fills its reply's templates from the captures.
 * Returns undefined when no rule matches.
 */
export function resolveScriptReply(rules: readonly ScriptRule[], view: ProviderRequestView): ResolvedReply | undefined {
  for (const rule of rules) {
    const captures = matchRule(rule.when, view);
    if (!captures) continue;
    const base = { ruleId: rule.id, toolCalls: [], text: undefined, toolSearch: undefined };
    if ('text' in rule.reply) return { ...base, text: fill(rule.reply.text, captures) };
    if ('toolSearch' in rule.reply) return { ...base, toolSearch: fillValue(rule.reply.toolSearch, captures) as Record<string, unknown> };
    return {
      ...base,
      toolCalls: rule.reply.toolCalls.map((call) => ({
        name: fill(call.name, captures),
        arguments: JSON.stringify(fillValue(call.arguments, captures)),
      })),
    };
  }
  return undefined;
}

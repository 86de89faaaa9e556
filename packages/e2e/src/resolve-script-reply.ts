// The mock provider's declarative script: a table of request matchers and the reply each one gives, and the
// resolver that picks the answering row for a request.

/** A function tool as the mock provider sees it in a request, whichever wire format carried it. */
export interface DeclaredTool {
  name: string;
  description: string;
  parameters: unknown;
}

/** A tool result the request carries back to the model (`function_call_output` or a `tool` message). */
export interface ToolResultMessage {
  callId: string;
  /** The name of the tool whose call produced it, when the request still holds that call. */
  toolName: string | undefined;
  output: string;
}

/** What a script rule matches against: one provider request, normalised across wire formats. */
export interface ProviderRequestView {
  api: 'responses' | 'chat';
  model: string;
  stream: boolean;
  instructions: string;
  userText: string;
  tools: DeclaredTool[];
  toolResults: ToolResultMessage[];
}

/**
 * When a rule applies. Every given field must hold. Regular expressions may use named groups; the groups
 * become template variables for the reply (`{{name}}`); `{{lastOutput}}` is the latest tool result (cut at
 * 400 characters).
 */
export interface RequestMatcher {
  /** Exactly this many tool results are in the request. */
  toolResults?: number;
  /** At least this many tool results are in the request. */
  minToolResults?: number;
  /** The instructions (system text) match. */
  instructions?: RegExp;
  /** Some declared tool's name matches; its name becomes `{{declaredTool}}`. */
  declaresTool?: RegExp;
  /** No declared tool's name matches. */
  lacksTool?: RegExp;
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

/** What a rule answers: tool calls, or final assistant text (a template). */
export type ScriptReply = { toolCalls: ScriptToolCall[] } | { text: string };

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
  if (when.toolResults !== undefined && view.toolResults.length !== when.toolResults) return undefined;
  if (when.minToolResults !== undefined && view.toolResults.length < when.minToolResults) return undefined;
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
    if ('text' in rule.reply) {
      return { ruleId: rule.id, toolCalls: [], text: fill(rule.reply.text, captures) };
    }
    return {
      ruleId: rule.id,
      text: undefined,
      toolCalls: rule.reply.toolCalls.map((call) => ({
        name: fill(call.name, captures),
        arguments: JSON.stringify(fillValue(call.arguments, captures)),
      })),
    };
  }
  return undefined;
}

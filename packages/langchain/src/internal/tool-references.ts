// Native mode with our search on Anthropic: the answer to the model's `tool_search` is a `tool_result` of
// `tool_reference` blocks. A ToolMessage carries them as its content; @langchain/anthropic (1.5) sends only the
// content block types it knows inside a tool message's `tool_result`, so before each model call such a message
// becomes a user message holding the `tool_result` block itself, which it sends unchanged.
import type { ToolSearchSession } from '@tool-search/gateway-adapter';
import { HumanMessage, ToolMessage, type BaseMessage } from 'langchain';

/** The additional_kwargs key that marks a ToolMessage answering a native tool search. */
const NATIVE_SEARCH_RESULT = 'tool_search_result';

/**
 * The ToolMessage that answers the model's native `tool_search` (`session.answerNativeSearch`: ranked under the
 * session's policy, within its limits, each tool loaded once), as Anthropic `tool_reference` blocks.
 */
export function nativeSearchAnswer(session: ToolSearchSession, name: string, args: unknown, toolCallId: string): ToolMessage {
  const { item, error } = session.answerNativeSearch({ type: 'tool_use', id: toolCallId, name, input: args }, 'anthropic');
  return new ToolMessage({
    content: item.content as unknown as ToolMessage['content'],
    tool_call_id: toolCallId,
    name,
    status: error === undefined ? 'success' : 'error',
    additional_kwargs: { [NATIVE_SEARCH_RESULT]: item },
  });
}

/** The messages with every native search answer as a user message holding its Anthropic `tool_result` block. */
export function withToolReferences(messages: BaseMessage[]): BaseMessage[] {
  return messages.map((message) => {
    if (!ToolMessage.isInstance(message)) return message;
    const item = message.additional_kwargs[NATIVE_SEARCH_RESULT];
    if (item === undefined) return message;
    // An Anthropic block LangChain's content types do not name; @langchain/anthropic passes a `tool_result` through.
    return new HumanMessage({ content: [item] as unknown as HumanMessage['content'] });
  });
}

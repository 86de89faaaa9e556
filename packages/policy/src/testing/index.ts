// Fakes for tests of code that calls `authorizeCall` (shipped as `@tool-search/policy/testing`).
// They record what they were asked, so a test can assert on the calls instead of mocking modules.
import type { ApprovalAnswer, ApprovalProvider, ApprovalRequest, BeforeToolCallEvent, BeforeToolCallHook, BeforeToolCallResult } from '../types';

/** A fake approval provider plus the requests it received. */
export interface FakeApprovalProvider extends ApprovalProvider {
  readonly requests: ApprovalRequest[];
}

/**
 * An approval provider that answers every request with `answer` (a value, or a function of the request)
 * and records the requests. `answer` may return anything, so tests can feed it malformed answers.
 */
export function createFakeApprovalProvider(
  answer: ApprovalAnswer | ((request: ApprovalRequest, signal: AbortSignal) => unknown),
): FakeApprovalProvider {
  const requests: ApprovalRequest[] = [];
  return {
    id: 'fake-approvals',
    requests,
    requestApproval(request, { signal }) {
      requests.push(request);
      return (typeof answer === 'function' ? answer(request, signal) : answer) as ApprovalAnswer;
    },
  };
}

/** A recording hook plus the events it received. */
export interface RecordingHook extends BeforeToolCallHook {
  readonly events: BeforeToolCallEvent[];
}

/** A `before_tool_call` hook that records its events and answers with `respond` (default: no change). */
export function createRecordingHook(
  id: string,
  respond: (event: BeforeToolCallEvent, signal: AbortSignal) => unknown = () => undefined,
): RecordingHook {
  const events: BeforeToolCallEvent[] = [];
  return {
    id,
    events,
    run(event, { signal }) {
      events.push(event);
      return respond(event, signal) as BeforeToolCallResult;
    },
  };
}

// A mock provider: `POST /v1/responses` and `POST /v1/chat/completions` (OpenAI) and `POST /v1/messages`
// (Anthropic), JSON or SSE, answered from a declarative script, with every raw request body recorded at
// `GET /debug/requests`. Deferred loading works as each provider documents it (OpenAI Responses tool search,
// Anthropic `tool_reference`), and what a real provider refuses, the mock refuses too.
import { createServer } from 'node:http';
import { pino, type Logger } from 'pino';
import { listenLocal, readBody, sendJson } from './internal/http-json.js';
import { mockAnthropicApi } from './internal/mock-anthropic-api.js';
import { checkReply, type MockApi, type MockRefusal, type RequestSchemaCounts } from './internal/mock-api.js';
import { mockChatApi } from './internal/mock-chat-api.js';
import { mockResponsesApi } from './internal/mock-responses-api.js';
import { resolveScriptReply, type ProviderApi, type ScriptRule } from './resolve-script-reply.js';

export type { MockRefusal, RequestSchemaCounts } from './internal/mock-api.js';

/** One request the mock provider received, raw body included. */
export interface RecordedProviderRequest {
  index: number;
  path: string;
  api: ProviderApi;
  /** The raw request body as sent. */
  body: string;
  /** UTF-8 byte length of the raw body. */
  bytes: number;
  stream: boolean;
  /** The id of the script rule that answered, or null when none matched or the request was refused. */
  ruleId: string | null;
  /** The tool definitions the request declares and the ones in the model's context (null when refused). */
  schemas: RequestSchemaCounts | null;
  /** Why the mock refused the request (answered with the API's error), as a real provider would. */
  refusal?: MockRefusal;
}

/** Options for `startMockProvider`. */
export interface MockProviderOptions {
  script: readonly ScriptRule[];
  /** Awaited after a rule matched and before its reply is sent (a test's side effect, e.g. killing a server). */
  beforeReply?: BeforeReply;
  logger?: Logger;
}

/** Runs between matching a rule and answering with it. */
export type BeforeReply = (ruleId: string, requestIndex: number) => void | Promise<void>;

/** A running mock provider. */
export interface MockProvider {
  /** Base URL for the official `openai` client, e.g. `http://127.0.0.1:PORT/v1`. */
  readonly baseURL: string;
  /** Base URL for the official `@anthropic-ai/sdk` client (it appends `/v1/messages`), e.g. `http://127.0.0.1:PORT`. */
  readonly anthropicBaseURL: string;
  /** The base URL for the official client of `api` (`anthropicBaseURL` for `anthropic`, else `baseURL`). */
  baseURLFor(api: ProviderApi): string;
  /** Every request recorded so far (a copy). */
  requests(): RecordedProviderRequest[];
  /** Forgets the recorded requests. */
  reset(): void;
  /** Replaces the script and the before-reply hook (for a test that needs a different table on the same server). */
  setScript(script: readonly ScriptRule[], beforeReply?: BeforeReply): void;
  close(): Promise<void>;
}

/** The wire formats, by path. */
const ROUTES: Readonly<Record<string, MockApi>> = {
  '/v1/responses': mockResponsesApi,
  '/v1/chat/completions': mockChatApi,
  '/v1/messages': mockAnthropicApi,
};

/**
 * Starts the mock provider on 127.0.0.1 with an OS-chosen port. Unmatched requests get a 400 in the API's
 * error shape naming the request (`no_rule_matched`), so a script gap fails loudly instead of looping; so do
 * requests a real provider refuses and scripted replies a model could not give (a call to a deferred tool no
 * search loaded: `deferred_tool_not_loaded`).
 */
export async function startMockProvider(options: MockProviderOptions): Promise<MockProvider> {
  const log = (options.logger ?? pino({ level: 'silent' })).child({ component: 'mock-provider' });
  let script = options.script;
  let beforeReply = options.beforeReply;
  let recorded: RecordedProviderRequest[] = [];
  let counter = 0;
  const ids = (): string => `${Date.now().toString(36)}${(counter++).toString(36).padStart(4, '0')}`;

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (request.method === 'GET' && url.pathname === '/debug/requests') {
        sendJson(response, 200, { requests: recorded });
        return;
      }
      if (request.method === 'DELETE' && url.pathname === '/debug/requests') {
        recorded = [];
        sendJson(response, 200, { requests: [] });
        return;
      }
      const route = Object.hasOwn(ROUTES, url.pathname) ? ROUTES[url.pathname] : undefined;
      if (request.method !== 'POST' || route === undefined) {
        sendJson(response, 404, { error: { message: `no route for ${request.method} ${url.pathname}`, type: 'not_found' } });
        return;
      }
      const body = await readBody(request);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        sendJson(response, 400, route.errorBody({ status: 400, code: 'invalid_json', message: 'request body is not JSON' }));
        return;
      }
      const bytes = Buffer.byteLength(body);
      const entry: RecordedProviderRequest = {
        index: recorded.length,
        path: url.pathname,
        api: route.api,
        body,
        bytes,
        stream: (parsed as { stream?: unknown } | null)?.stream === true,
        ruleId: null,
        schemas: null,
      };
      recorded.push(entry);
      const refuse = (refusal: MockRefusal): void => {
        entry.refusal = refusal;
        log.debug({ index: entry.index, api: route.api, code: refusal.code }, 'provider request refused');
        sendJson(response, refusal.status, route.errorBody(refusal));
      };
      const read = route.read(parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {});
      if (!read.ok) return refuse(read.refusal);
      entry.schemas = read.schemas;
      const reply = resolveScriptReply(script, read.view);
      log.debug({ index: entry.index, api: route.api, bytes, ruleId: reply?.ruleId ?? null }, 'provider request');
      if (!reply) {
        const { view } = read;
        return refuse({
          status: 400,
          code: 'no_rule_matched',
          message: `mock provider: no script rule matched request #${entry.index} (${view.toolResults.length} tool results, ${view.tools.length} tools, ${view.deferredTools.length} deferred)`,
        });
      }
      const impossible = checkReply(read.view, reply);
      if (impossible) return refuse(impossible);
      entry.ruleId = reply.ruleId;
      if (beforeReply) await beforeReply(reply.ruleId, entry.index);
      route.answer(response, read.view, reply, { requestBytes: bytes, ids });
    })().catch((error: unknown) => {
      log.error({ err: error }, 'provider request failed');
      if (!response.headersSent) sendJson(response, 500, { error: { message: 'mock provider failed', type: 'server_error' } });
      else response.end();
    });
  });
  const { baseURL, close } = await listenLocal(server);
  const anthropicBaseURL = baseURL.replace(/\/v1$/, '');
  return {
    baseURL,
    anthropicBaseURL,
    baseURLFor: (api) => (api === 'anthropic' ? anthropicBaseURL : baseURL),
    requests: () => recorded.map((entry) => ({ ...entry })),
    reset: () => {
      recorded = [];
    },
    setScript: (next, nextBeforeReply) => {
      script = next;
      beforeReply = nextBeforeReply;
    },
    close,
  };
}

// createOpenAiEmbedder: an Embedder over an OpenAI-compatible `POST /embeddings` endpoint (OpenAI, Ollama,
// vLLM, LiteLLM, llama.cpp's server). A thin adapter: one request per batch, zod on the response.
import { z } from 'zod';
import { CatalogError } from './errors.js';
import type { Embedder, EmbeddingKind } from './types.js';

/** Options of `createOpenAiEmbedder`. */
export interface OpenAiEmbedderOptions {
  /** The API base, `/embeddings` is appended: `https://api.openai.com/v1`, `http://localhost:11434/v1`. */
  baseUrl: string;
  /** The embedding model, e.g. `text-embedding-3-small` or `nomic-embed-text`. */
  model: string;
  /** Sent as `Authorization: Bearer <apiKey>` when given; never logged or put in an error. */
  apiKey?: string;
  /** Asks for vectors of this length (models that support it). */
  dimensions?: number;
  /** Texts per request (default 64). */
  maxBatchSize?: number;
  /** Per-request timeout in milliseconds (default 30,000). */
  timeoutMs?: number;
  /** Put before each query / tool text (models trained with prefixes, e.g. `search_query: `). */
  queryPrefix?: string;
  toolPrefix?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /**
   * The vectors' cache identity (default: `openai-compatible/<model>[@<dimensions>][#<prefixes>] <endpoint>`, where
   * the endpoint is `baseUrl` without credentials, query or fragment: two servers that answer to one model name, a
   * llama.cpp server ignores the name, never share cached vectors).
   */
  id?: string;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

const optionsSchema = z.strictObject({
  baseUrl: z.url({ protocol: /^https?$/ }),
  model: z.string().min(1).max(200),
  apiKey: z.string().min(1).optional(),
  dimensions: z.number().int().min(1).max(65_536).optional(),
  maxBatchSize: z.number().int().min(1).max(2_048).optional(),
  timeoutMs: z.number().int().min(1).optional(),
  queryPrefix: z.string().max(200).optional(),
  toolPrefix: z.string().max(200).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  id: z.string().min(1).max(300).optional(),
  fetch: z.custom<typeof fetch>((value) => typeof value === 'function', 'expected a fetch function').optional(),
});

/** The part of the response read: `data[].embedding` with its `index`. */
const responseSchema = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()), index: z.number().int().min(0).optional() })),
});

const DEFAULT_BATCH = 64;
const DEFAULT_TIMEOUT_MS = 30_000;

/** An embedder for an OpenAI-compatible `/embeddings` endpoint; throws `CatalogError('invalid_options')` on bad options. */
export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = z.core.toDotPath(issue?.path ?? []);
    throw new CatalogError('invalid_options', `Invalid OpenAI embedder option \`${path || '(options)'}\`: ${issue?.message ?? 'invalid'}.`, path === '' ? {} : { path });
  }
  const settings = parsed.data;
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/embeddings`;
  const doFetch = settings.fetch ?? globalThis.fetch;
  const prefixes = settings.queryPrefix || settings.toolPrefix ? `#${settings.queryPrefix ?? ''}|${settings.toolPrefix ?? ''}` : '';
  const id = settings.id ?? `openai-compatible/${settings.model}${settings.dimensions ? `@${settings.dimensions}` : ''}${prefixes} ${endpointOf(settings.baseUrl)}`;
  const fail = (message: string, cause?: unknown) =>
    new CatalogError('embedder_failed', `Embedding request to ${url} failed: ${message}.`, cause === undefined ? {} : { cause });

  return {
    id,
    maxBatchSize: settings.maxBatchSize ?? DEFAULT_BATCH,
    async embed(texts: string[], { kind }: { kind: EmbeddingKind }): Promise<number[][]> {
      if (texts.length === 0) return [];
      const prefix = (kind === 'query' ? settings.queryPrefix : settings.toolPrefix) ?? '';
      const body = { model: settings.model, input: texts.map((text) => prefix + text), encoding_format: 'float', ...(settings.dimensions ? { dimensions: settings.dimensions } : {}) };
      let response: Response;
      try {
        response = await doFetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...settings.headers, ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(settings.timeoutMs ?? DEFAULT_TIMEOUT_MS),
        });
      } catch (error) {
        throw fail(error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${settings.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms` : 'the endpoint could not be reached', error);
      }
      if (!response.ok) {
        // A short, single-line excerpt of the error body helps; the whole payload never goes into the message.
        const excerpt = (await response.text().catch(() => '')).replace(/\s+/g, ' ').slice(0, 200);
        throw fail(`HTTP ${response.status}${excerpt ? ` (${excerpt})` : ''}`);
      }
      let json: unknown;
      try {
        json = await response.json();
      } catch (error) {
        throw fail('the response is not JSON', error);
      }
      const result = responseSchema.safeParse(json);
      if (!result.success) throw fail('the response has no data[].embedding arrays');
      const data = result.data.data;
      if (data.length !== texts.length) throw fail(`${data.length} embeddings for ${texts.length} inputs`);
      const ordered = data.every((entry) => entry.index !== undefined) ? [...data].sort((a, b) => (a.index as number) - (b.index as number)) : data;
      return ordered.map((entry) => entry.embedding);
    },
  };
}

/** `baseUrl` as a cache identity: scheme, host, port and path, never credentials, query or fragment. */
function endpointOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

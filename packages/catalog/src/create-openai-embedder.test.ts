// Against a real local HTTP server that speaks the OpenAI /embeddings wire format (as Ollama and vLLM do).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCatalog } from './create-catalog.js';
import { createOpenAiEmbedder } from './create-openai-embedder.js';

interface Received {
  url: string;
  authorization: string | undefined;
  body: { model: string; input: string[]; dimensions?: number; encoding_format?: string };
}

let server: Server;
let baseUrl: string;
const received: Received[] = [];
/** How the server answers the next request; default: one vector per input, listed in reverse index order. */
let answer: (request: Received, response: ServerResponse) => void;
const vectorOf = (text: string) => [text.includes('parrot') || text.includes('echo') ? 1 : 0, text.includes('sum') || text.includes('plus') ? 1 : 0, 0.01];
const defaultAnswer = (request: Received, response: ServerResponse) => {
  const data = request.body.input.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text) })).reverse();
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ object: 'list', data, model: request.body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
};

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      const entry: Received = { url: request.url ?? '', authorization: request.headers.authorization, body: JSON.parse(raw) as Received['body'] };
      received.push(entry);
      answer(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  received.length = 0;
  answer = defaultAnswer;
});

describe('createOpenAiEmbedder', () => {
  it('posts the texts to <baseUrl>/embeddings and returns the vectors in input order', async () => {
    const embedder = createOpenAiEmbedder({ baseUrl, model: 'nomic-embed-text', apiKey: 'sk-test', dimensions: 3 });
    const vectors = await embedder.embed(['echo this', 'what is 1 plus 2'], { kind: 'tool' });
    expect(vectors).toEqual([vectorOf('echo this'), vectorOf('what is 1 plus 2')]);
    expect(received).toEqual([
      { url: '/v1/embeddings', authorization: 'Bearer sk-test', body: { model: 'nomic-embed-text', input: ['echo this', 'what is 1 plus 2'], encoding_format: 'float', dimensions: 3 } },
    ]);
    expect(embedder.id).toBe(`openai-compatible/nomic-embed-text@3 ${baseUrl}`);
  });

  it('puts the query or tool prefix before each text and sends no authorization without a key', async () => {
    const embedder = createOpenAiEmbedder({ baseUrl: `${baseUrl}/`, model: 'm', queryPrefix: 'search_query: ', toolPrefix: 'search_document: ' });
    await embedder.embed(['a'], { kind: 'query' });
    await embedder.embed(['b'], { kind: 'tool' });
    expect(received.map((entry) => [entry.authorization, entry.body.input])).toEqual([
      [undefined, ['search_query: a']],
      [undefined, ['search_document: b']],
    ]);
    expect(embedder.id).toBe(`openai-compatible/m#search_query: |search_document:  ${baseUrl}`);
  });

  it('keeps the vectors of two servers apart in its identity, without their credentials or query', () => {
    const at = (url: string) => createOpenAiEmbedder({ baseUrl: url, model: 'default' }).id;
    expect(at('http://127.0.0.1:8080/v1')).not.toBe(at('http://127.0.0.1:8081/v1'));
    expect(at('http://127.0.0.1:8080/v1/')).toBe(at('http://127.0.0.1:8080/v1'));
    expect(at('https://user:secret@embed.example/v1?key=abc#x')).toBe('openai-compatible/default https://embed.example/v1');
    expect(createOpenAiEmbedder({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'm', id: 'mine' }).id).toBe('mine');
  });

  it('rejects with embedder_failed naming the HTTP status, without the key', async () => {
    answer = (_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'Incorrect API key provided' } }));
    };
    const embedder = createOpenAiEmbedder({ baseUrl, model: 'm', apiKey: 'sk-secret' });
    const failure = embedder.embed(['a'], { kind: 'tool' });
    await expect(failure).rejects.toMatchObject({ code: 'embedder_failed', message: expect.stringContaining('HTTP 401') });
    await expect(failure).rejects.not.toMatchObject({ message: expect.stringContaining('sk-secret') });
  });

  it('rejects a response without embeddings, or with the wrong number of them', async () => {
    answer = (_request, response) => response.end(JSON.stringify({ data: [{ index: 0 }] }));
    await expect(createOpenAiEmbedder({ baseUrl, model: 'm' }).embed(['a'], { kind: 'tool' })).rejects.toMatchObject({ code: 'embedder_failed', message: expect.stringContaining('no data[].embedding') });
    answer = (_request, response) => response.end(JSON.stringify({ data: [{ index: 0, embedding: [1] }] }));
    await expect(createOpenAiEmbedder({ baseUrl, model: 'm' }).embed(['a', 'b'], { kind: 'tool' })).rejects.toMatchObject({ message: expect.stringContaining('1 embeddings for 2 inputs') });
    answer = (_request, response) => response.end('not json');
    await expect(createOpenAiEmbedder({ baseUrl, model: 'm' }).embed(['a'], { kind: 'tool' })).rejects.toMatchObject({ message: expect.stringContaining('not JSON') });
  });

  it('gives up after timeoutMs when the server does not answer', async () => {
    answer = () => undefined;
    const started = Date.now();
    await expect(createOpenAiEmbedder({ baseUrl, model: 'm', timeoutMs: 200 }).embed(['a'], { kind: 'tool' })).rejects.toMatchObject({
      code: 'embedder_failed',
      message: expect.stringContaining('no answer within 200 ms'),
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('rejects an endpoint that cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(createOpenAiEmbedder({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' }).embed(['a'], { kind: 'tool' })).rejects.toMatchObject({
      code: 'embedder_failed',
      message: expect.stringContaining('could not be reached'),
    });
  });

  it('throws invalid_options for a missing model or a base URL that is not http(s)', () => {
    expect(() => createOpenAiEmbedder({ baseUrl, model: '' })).toThrow(expect.objectContaining({ code: 'invalid_options', path: 'model' }));
    expect(() => createOpenAiEmbedder({ baseUrl: 'file:///etc', model: 'm' })).toThrow(expect.objectContaining({ code: 'invalid_options', path: 'baseUrl' }));
    expect(() => createOpenAiEmbedder({ baseUrl, model: 'm', batch: 3 } as never)).toThrow(expect.objectContaining({ code: 'invalid_options' }));
  });

  it('drives a catalog: searchAsync finds the tool a query paraphrases, each tool embedded once', async () => {
    const catalog = createCatalog(
      [
        { name: 'echo', source: 'mcp', owner: 'everything', description: 'Echoes back the input string.' },
        { name: 'get_sum', source: 'mcp', owner: 'everything', description: 'Returns the sum of two numbers.' },
        { name: 'list_files', source: 'mcp', owner: 'fs', description: 'List the files in a directory.' },
      ],
      { embedder: createOpenAiEmbedder({ baseUrl, model: 'm', maxBatchSize: 2 }) },
    );
    expect(catalog.search('parrot my words')).toEqual([]);
    expect((await catalog.searchAsync('parrot my words', { limit: 1 })).map((hit) => hit.id)).toEqual(['mcp:everything:echo']);
    await catalog.searchAsync('parrot my words');
    expect(received.map((entry) => entry.body.input.length)).toEqual([2, 1, 1]);
  });
});

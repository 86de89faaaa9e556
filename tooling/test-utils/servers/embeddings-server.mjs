// An OpenAI-compatible embeddings server for the tests of the embedder path: `POST /v1/embeddings` answers
// `{ data: [{ index, embedding }] }` as OpenAI, Ollama, TEI and llama.cpp's server do, with deterministic vectors:
// words of one concept below share a dimension, any other word hashes to one of the rest. `GET /stats` counts the
// embedding requests and texts. Prints `{"port":N}` on stdout once it listens on 127.0.0.1.
//   EMBED_FAIL=1   every embedding request answers HTTP 503 (a model that is down)
import { createServer } from 'node:http';

const CONCEPTS = [
  ['remember', 'memory', 'fact', 'facts', 'store', 'observation', 'observations', 'entity', 'entities', 'knowledge'],
  ['weather', 'forecast', 'rain', 'umbrella', 'temperature'],
  ['picture', 'screenshot', 'capture', 'image'],
  ['sum', 'add', 'plus', 'total', 'numbers'],
];
const DIMENSIONS = 32;
const concept = new Map(CONCEPTS.flatMap((words, index) => words.map((word) => [word, index])));

function embed(text) {
  const vector = new Array(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    let dimension = concept.get(word);
    if (dimension === undefined) {
      let hash = 2166136261;
      for (const char of word) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
      dimension = CONCEPTS.length + ((hash >>> 0) % (DIMENSIONS - CONCEPTS.length));
    }
    vector[dimension] += dimension < CONCEPTS.length ? 3 : 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

const stats = { requests: 0, inputs: 0 };
const server = createServer((request, response) => {
  const send = (status, body) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (request.method === 'GET' && request.url === '/stats') return send(200, stats);
  if (request.method !== 'POST' || request.url !== '/v1/embeddings') return send(404, { error: { message: 'not found' } });
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    stats.requests += 1;
    if (process.env.EMBED_FAIL === '1') return send(503, { error: { message: 'model is loading' } });
    let parsed;
    try {
      parsed = JSON.parse(body);
    } catch {
      return send(400, { error: { message: 'body is not JSON' } });
    }
    const inputs = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
    if (typeof parsed.model !== 'string' || !inputs.every((input) => typeof input === 'string')) return send(400, { error: { message: 'expected model and input' } });
    stats.inputs += inputs.length;
    send(200, { object: 'list', model: parsed.model, data: inputs.map((input, index) => ({ object: 'embedding', index, embedding: embed(input) })), usage: { prompt_tokens: 0, total_tokens: 0 } });
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));

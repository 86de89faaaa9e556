// The console's HTTP side without a host: the page and its CSP, the API's routes, against a fake ConsoleData.
import { createHash, webcrypto } from 'node:crypto';
import { propertySettings } from '@tool-search/property-settings';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsoleRoutes } from './console-api.js';
import type { ConsoleData } from './console-data.js';
import { cspHashSource } from './console-page.js';
import { CONSOLE_SCRIPT, CONSOLE_STYLE } from './console-page-sources.js';
import { serveConsole, type RunningConsole } from './serve-console.js';

const ANSWERS: ConsoleRoutes = {
  '/api/servers': { servers: [{ name: 'memory', state: 'ready', tools: 9, restarts: 0 }], catalog: { size: 9, sources: { mcp: 9 } } },
  '/api/catalog': [{ id: 'mcp:memory:read_graph', description: 'Read the graph', trusted: false }],
  '/api/policy': [{ id: 'mcp:memory:read_graph', admitted: true }],
  '/api/search': {
    query: 'q',
    explanation: { query: 'q', words: [], evidence: 'weak', coverage: 0, strength: 0, thresholds: { coverage: 0.5, strength: 0.5 }, hits: [] },
    also: [],
  },
  '/api/activity': { lines: [], problems: [] },
  '/api/bytes': [{ requested: 'direct', mode: 'direct', tools: 9, toolBytes: 900, instructionBytes: 0 }],
};
const searched: Array<[string, number | undefined]> = [];
const data: ConsoleData = {
  servers: () => ANSWERS['/api/servers'],
  catalog: () => ANSWERS['/api/catalog'],
  policy: () => ANSWERS['/api/policy'],
  search: async (query, limit) => {
    searched.push([query, limit]);
    return ANSWERS['/api/search'];
  },
  activity: () => ANSWERS['/api/activity'],
  bytes: async () => ANSWERS['/api/bytes'],
  close: async () => undefined,
};

let running: RunningConsole | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
  searched.length = 0;
});

/** The text of the page's one inline `<tag>` element. */
function inlineText(html: string, tag: 'script' | 'style'): string {
  const found = [...html.matchAll(new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, 'g'))].map((match) => match[1] ?? '');
  expect(found).toHaveLength(1);
  return found[0] ?? '';
}

/** The sources a CSP directive lists (`script-src 'sha256-…'` → [`'sha256-…'`]). */
function directive(csp: string, name: string): string[] {
  const found = csp.split(';').map((part) => part.trim().split(/\s+/)).find(([key]) => key === name);
  return found === undefined ? [] : found.slice(1);
}

describe('serveConsole', () => {
  it("serves the page under a hash-based CSP: the sha256 of the served script and style, no 'unsafe-inline'", async () => {
    running = await serveConsole(data, 0);
    const response = await fetch(`http://127.0.0.1:${running.port}/`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    const html = await response.text();
    const script = inlineText(html, 'script');
    const style = inlineText(html, 'style');
    // The hashes are computed here from what was served, the way a browser computes them (UTF-8, base64).
    const sha256 = (text: string) => `'sha256-${createHash('sha256').update(Buffer.from(text, 'utf8')).digest('base64')}'`;
    expect(directive(csp, 'script-src')).toEqual([sha256(script)]);
    expect(directive(csp, 'style-src')).toEqual([sha256(style)]);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(directive(csp, 'default-src')).toEqual(["'self'"]);
    // What is served is the checked files, verbatim.
    expect(script).toBe(CONSOLE_SCRIPT);
    expect(style).toBe(CONSOLE_STYLE);
  });

  it('answers each API route with its typed answer behind the token, and refuses bad requests in words', async () => {
    running = await serveConsole(data, 0);
    const base = `http://127.0.0.1:${running.port}`;
    const headers = { Authorization: `Bearer ${running.token}` };
    for (const path of Object.keys(ANSWERS) as Array<keyof ConsoleRoutes>) {
      const response = await fetch(`${base}${path}`, { headers });
      expect([path, response.status]).toEqual([path, 200]);
      expect(await response.json()).toEqual(ANSWERS[path]);
    }
    expect(searched).toEqual([['', undefined]]);
    expect((await fetch(`${base}/api/servers`)).status).toBe(401);
    const badLimit = await fetch(`${base}/api/search?q=x&limit=0`, { headers });
    expect([badLimit.status, await badLimit.json()]).toEqual([400, { error: 'limit 0: expected a whole number of at least 1' }]);
    const unknown = await fetch(`${base}/api/toString`, { headers });
    expect([unknown.status, await unknown.json()]).toEqual([404, { error: 'no /api/toString here' }]);
    const withLimit = await fetch(`${base}/api/search?q=read%20a%20file&limit=3`, { headers });
    expect(withLimit.status).toBe(200);
    expect(searched.at(-1)).toEqual(['read a file', 3]);
  });
});

describe('cspHashSource', () => {
  it("is the sha256 a browser computes of an inline element's text (UTF-8, base64), for any text", async () => {
    const settings = propertySettings();
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 200 }), async (text) => {
        const digest = await webcrypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
        expect(cspHashSource(text)).toBe(`'sha256-${Buffer.from(digest).toString('base64')}'`);
      }),
      { numRuns: settings.runs(200), seed: settings.seed },
    );
  });
});

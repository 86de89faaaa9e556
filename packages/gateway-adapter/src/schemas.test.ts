import { describe, expect, it } from 'vitest';
import { mcpServerConfigSchema } from './schemas.js';

const issues = (input: unknown) => {
  const parsed = mcpServerConfigSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
};

describe('mcpServerConfigSchema', () => {
  it('accepts every per-server option', () => {
    const config = {
      name: 'github',
      transport: 'http',
      url: 'https://api.example.com/mcp',
      trusted: false,
      include: ['get_*', 'list_*', 'mcp:github:search_*'],
      exclude: ['delete_*'],
      visible: ['get_issue'],
      timeoutMs: 20_000,
      maxTotalTimeoutMs: 120_000,
      oauth: { clientId: 'cid', scopes: ['repo'], redirectUrl: 'http://localhost:8976/callback' },
    };
    expect(mcpServerConfigSchema.parse(config)).toEqual(config);
    expect(mcpServerConfigSchema.parse({ name: 'legacy', transport: 'sse', url: 'https://x.example/sse', oauth: true })).toEqual({
      name: 'legacy',
      transport: 'sse',
      url: 'https://x.example/sse',
      oauth: true,
    });
  });

  it('rejects an include pattern policy cannot parse, naming its index', () => {
    expect(issues({ name: 's', transport: 'stdio', command: 'x', include: ['ok_*', 'a:b'] })).toEqual([
      { path: 'include.1', message: expect.stringContaining('3 segments') },
    ]);
  });

  it('rejects oauth on a stdio server and unknown keys (strict)', () => {
    expect(issues({ name: 's', transport: 'stdio', command: 'x', oauth: true }).map((issue) => issue.path)).toEqual(['']);
    expect(issues({ name: 's', transport: 'stdio', command: 'x', trusted: 'yes' })).toEqual([
      { path: 'trusted', message: 'Invalid input: expected boolean, received string' },
    ]);
  });

  it('needs a client id and secret for client_credentials and timeoutMs within maxTotalTimeoutMs', () => {
    expect(issues({ name: 's', transport: 'http', url: 'https://x.example', oauth: { grantType: 'client_credentials' } })).toEqual([
      { path: 'oauth.grantType', message: 'client_credentials needs oauth.clientId and oauth.clientSecret' },
    ]);
    expect(issues({ name: 's', transport: 'stdio', command: 'x', timeoutMs: 5_000, maxTotalTimeoutMs: 1_000 })).toEqual([
      { path: 'timeoutMs', message: 'timeoutMs (5000) must not exceed maxTotalTimeoutMs (1000)' },
    ]);
  });
});

import { createServer } from 'node:net';
import { DEFAULT_OAUTH_REDIRECT_URL } from '@tool-search/gateway-adapter';
import { describe, expect, it } from 'vitest';
import { createCliOutput } from './cli-io.js';
import { createOAuthAuthorizer } from './create-oauth-authorizer.js';
import { createTestIo } from './testing-io.js';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('createOAuthAuthorizer', () => {
  it('prints the authorization URL on stderr and resolves with the query the browser brings back to the redirect URL', async () => {
    const io = createTestIo();
    const port = await freePort();
    const authorizer = createOAuthAuthorizer({ output: createCliOutput(io, { json: false, quiet: false }), redirectUrl: `http://127.0.0.1:${port}/callback` });
    const code = authorizer.authorize({ server: 'notion', authorizationUrl: new URL('https://auth.example.com/authorize?client_id=x') });
    for (let attempt = 0; attempt < 100 && !io.err().includes('needs authorization'); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(io.err()).toContain('MCP server "notion" needs authorization. Open this URL in a browser:\n  https://auth.example.com/authorize?client_id=x');
    const page = await fetch(`http://127.0.0.1:${port}/callback?code=the-code&state=s&iss=https%3A%2F%2Fauth.example.com`);
    expect(await page.text()).toContain('"notion" is authorized');
    // The whole query, so the client can check the issuer before it exchanges the code.
    expect(Object.fromEntries(((await code) as URLSearchParams | undefined) ?? [])).toEqual({ code: 'the-code', state: 's', iss: 'https://auth.example.com' });
    await authorizer.close();
  });

  it('gives up (undefined) when nobody comes back in time', async () => {
    const port = await freePort();
    const authorizer = createOAuthAuthorizer({ output: createCliOutput(createTestIo(), { json: false, quiet: true }), redirectUrl: `http://127.0.0.1:${port}/callback`, timeoutMs: 100 });
    expect(await authorizer.authorize({ server: 'notion', authorizationUrl: new URL('https://auth.example.com/authorize') })).toBeUndefined();
  });

  it('listens, by default, where the gateway\'s OAuth client redirects (one constant, not two strings that agree)', async () => {
    const io = createTestIo();
    const authorizer = createOAuthAuthorizer({ output: createCliOutput(io, { json: false, quiet: false }) });
    const query = authorizer.authorize({ server: 'notion', authorizationUrl: new URL('https://auth.example.com/authorize') });
    for (let attempt = 0; attempt < 100 && !io.err().includes('needs authorization'); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    await fetch(`${DEFAULT_OAUTH_REDIRECT_URL}?code=c1&state=s1`);
    expect(((await query) as URLSearchParams | undefined)?.get('code')).toBe('c1');
    await authorizer.close();
  });
});

// `tool-search console` in a real browser: Playwright drives the distribution's Chromium (headless) through
// every view of the page, against a host with real MCP servers from npm, and writes a screenshot of each view to
// artifacts/console/ at the repository root (kept by CI as artifacts).
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createSessionLog } from '@tool-search/gateway-adapter';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlPrinted } from './url-printed.js';
import { scaledTimeout } from '@tool-search/property-settings';
import { REPLAY_MCP_SERVER_PATH } from '@tool-search/test-utils';

const require = createRequire(import.meta.url);
const BIN = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const ARTIFACTS = fileURLToPath(new URL('../../../../artifacts/console/', import.meta.url));
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));

let work: string;
let child: ChildProcessByStdio<null, Readable, Readable>;
let browser: Browser;
let page: Page;
let url: string;
let missingLog: string;
/** What Chromium said went wrong in the page: CSP refusals are logged as console errors; uncaught errors too. */
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build the package first (pnpm --filter tool-search build)`);
  if (CHROMIUM === undefined) throw new Error('Chromium is not installed (Debian package chromium); pnpm test installs it');
  work = mkdtempSync(join(tmpdir(), 'tool-search-console-'));
  mkdirSync(ARTIFACTS, { recursive: true });
  const config = join(work, 'config.json');
  writeFileSync(config, JSON.stringify({
    mcpServers: {
      everything: { command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js')] },
      memory: { command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-memory/dist/index.js')], env: { MEMORY_FILE_PATH: join(work, 'memory.jsonl') } },
      // GitHub's recorded tools replayed as listed: no annotations, so MCP's default destructiveHint (true) applies.
      github: { command: process.execPath, args: [REPLAY_MCP_SERVER_PATH], env: { REPLAY_TOOLS_FILE: join(work, 'github.jsonl') } },
    },
    toolSearch: { mode: 'tools' },
    policy: { deny: ['*:everything:get-env'], requireApproval: ['hint:destructive'] },
  }));
  writeFileSync(join(work, 'github.jsonl'), JSON.stringify({ name: 'list_issues', description: 'List issues in a GitHub repository.', parameters: null, source: 'github' }));
  // A session log written by the gateway's own writer, with a call the activity view must list; and a path with
  // no file, which the view must name.
  const sessionLog = join(work, 'session.jsonl');
  const log = createSessionLog({ path: sessionLog }, { sessionId: 'agent-7' });
  log.write('call', { toolCallId: 'c1', toolId: 'mcp:memory:create_entities', status: 'ok', durationMs: 12 });
  log.flush();
  missingLog = join(work, 'no-such-session.jsonl');
  child = spawn(process.execPath, [BIN, 'console', '--config', config, '--session-log', sessionLog, '--session-log', missingLog, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  url = await urlPrinted(child);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  const browserContext = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  page = await browserContext.newPage();
  // Not counted: the 401 and 500 answers the tests ask for, and the browser's own favicon request.
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (/Failed to load resource: the server responded with a status of (401|500)/.test(message.text()) || message.location().url.endsWith('/favicon.ico')) return;
    pageErrors.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
}, scaledTimeout(60_000));

afterAll(async () => {
  await browser?.close();
  if (child?.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(work, { recursive: true, force: true });
});

const view = async (name: string) => {
  await page.locator('#nav').getByRole('button', { name, exact: true }).click();
  await page.locator('main').getByText('Loading...').waitFor({ state: 'detached' });
};
const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

describe('tool-search console in Chromium', { timeout: scaledTimeout(60_000) }, () => {
  it('runs its one inline script and style under a CSP that admits exactly them, by sha256', async () => {
    const response = await page.goto(url);
    const csp = (await response?.allHeaders())?.['content-security-policy'] ?? '';
    expect(csp).not.toContain('unsafe-inline');
    // The texts as Chromium parsed them from the page; the hashes computed here, as the browser does.
    const script = (await page.locator('script').textContent()) ?? '';
    const style = (await page.locator('style').textContent()) ?? '';
    const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
    expect(csp).toContain(`script-src ${sha256(script)}`);
    expect(csp).toContain(`style-src ${sha256(style)}`);
    // The script ran (it drew the servers) and the style applied (the header's background).
    await expect.poll(() => page.locator('main table').textContent()).toContain('everything');
    expect(await page.evaluate("getComputedStyle(document.querySelector('header')).backgroundColor")).toBe('rgb(29, 39, 51)');
    expect(pageErrors).toEqual([]);
  });

  it('opens on the servers, with the token taken out of the address bar, and refuses the API without it', async () => {
    await page.goto(url);
    await expect.poll(() => page.locator('main table').textContent()).toContain('everything');
    expect(await page.locator('main').textContent()).toMatch(/memory\s*ready/);
    expect(page.url()).not.toContain('token=');
    const unauthorized = await page.evaluate(async () => (await fetch('/api/servers')).status);
    expect(unauthorized).toBe(401);
    expect(await page.getByRole('button', { name: 'Servers', exact: true }).getAttribute('aria-current')).toBe('page');
    await shot('servers');
  });

  it('says what to do when the token is missing or wrong, instead of a bare HTTP 401', async () => {
    const other = await browser.newPage();
    try {
      await other.goto(url.replace(/token=[^&#]+/, 'token=stale'));
      await other.getByRole('heading', { name: "This page needs the console's token" }).waitFor();
      const text = await other.locator('main').textContent();
      expect(text).toContain('Open the full URL that tool-search console printed when it started');
      expect(text).not.toContain('HTTP 401');
    } finally {
      await other.close();
    }
  });

  it('lists the whole catalog with schemas and annotations, and filters it', async () => {
    await view('Catalog');
    await page.getByLabel('filter tools').fill('entities');
    const text = await page.locator('main').textContent();
    expect(text).toContain('mcp:memory:create_entities');
    expect(text).not.toContain('mcp:everything:echo');
    await page.locator('main details').first().click();
    expect(await page.locator('main pre').first().textContent()).toContain('"type"');
    // Every schema open, the page still fits the 1280 px window: long schemas wrap.
    await page.getByLabel('filter tools').fill('');
    for (const details of await page.locator('main details').all()) await details.evaluate((node) => node.setAttribute('open', ''));
    expect(await page.locator('html').evaluate((root) => root.scrollWidth)).toBeLessThanOrEqual(1280);
    await shot('catalog');
  });

  it('explains a search that misses: the words no tool has, why it is weak, and the server map the model gets', async () => {
    await view('Search');
    await page.getByLabel('query').fill('remember that alice likes tea');
    await page.getByRole('button', { name: 'Search', exact: true }).last().click();
    await page.locator('#why').waitFor();
    const text = await page.locator('#search-result').textContent();
    expect(text).toContain('weak');
    expect(text).toContain('the server map');
    expect(text).toContain('create_entities');
    await shot('search-miss');
    await page.getByLabel('query').fill('create entities in the knowledge graph');
    await page.getByRole('button', { name: 'Search', exact: true }).last().click();
    await expect.poll(() => page.locator('#search-result').textContent()).toContain('mcp:memory:create_entities');
    expect(await page.locator('#search-result').textContent()).toMatch(/via (word|exact-form)/);
    await shot('search-hit');
    // A word the query implies and does not write is marked as implied.
    await page.getByLabel('query').fill('how many entities are in the graph');
    await page.getByRole('button', { name: 'Search', exact: true }).last().click();
    await expect.poll(() => page.locator('#search-result code.implied').allTextContents()).toEqual(['+count ']);
    // get-env is refused: a search for it says that refused tools match, without naming one.
    await page.getByLabel('query').fill('get environment variables');
    await page.getByRole('button', { name: 'Search', exact: true }).last().click();
    await expect.poll(() => page.locator('#search-result').textContent()).toMatch(/1 tool the policy refuses matches these words/);
    expect(await page.locator('#search-result').textContent()).not.toContain('get-env');
    // The words as typed, the fields in plain words; a live region says each search's outcome.
    expect(await page.locator('#search-result').textContent()).not.toMatch(/\benviron\b|\bvariabl\b|paramText/);
    expect(await page.getByRole('status').getAttribute('aria-live')).toBe('polite');
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/^\d+ tools found, evidence (weak|strong)$/);
  });

  it('shows a failed search where it happened, the form still there', async () => {
    await view('Search');
    await page.route('**/api/search?**', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'the search index is being rebuilt' }) }));
    try {
      await page.getByLabel('query').fill('read a file');
      await page.getByRole('button', { name: 'Search', exact: true }).last().click();
      await expect.poll(() => page.locator('#search-result [role=alert]').textContent()).toBe('the search index is being rebuilt (/api/search)');
      expect(await page.getByLabel('query').inputValue()).toBe('read a file');
      expect(await page.getByRole('status').textContent()).toBe('The search failed');
    } finally {
      await page.unroute('**/api/search?**');
    }
  });

  it('shows what the policy refuses and the rule that decided', async () => {
    await view('Policy');
    const text = await page.locator('main').textContent();
    expect(text).toMatch(/1 refused/);
    expect(text).toContain('deny:*:everything:get-env');
    await page.getByLabel('filter policy').fill('get-env');
    expect(await page.locator('main tbody tr').allTextContents()).toEqual([expect.stringContaining('mcp:everything:get-env')]);
    await page.getByLabel('filter policy').fill('');
    await page.getByLabel('refused only').check();
    expect(await page.locator('main tbody tr').count()).toBe(1);
    await page.getByLabel('refused only').uncheck();
    await shot('policy');
  });

  it('shows which admitted tools a requireApproval rule puts before an approval, and why, with the note on missing annotations', async () => {
    await view('Policy');
    expect(await page.locator('main').textContent()).toMatch(/a call to \d+ of the admitted needs approval/);
    await page.getByLabel('filter policy').fill('list_issues');
    expect(await page.locator('main tbody tr').allTextContents()).toEqual([
      "mcp:github:list_issuesneeds approvalno rule refuses it; a call requires approval by 'hint:destructive' in global (no annotations: MCP's default destructiveHint is true)",
    ]);
    // The memory server states its hints: its destructive tools need approval, with no word about defaults.
    await page.getByLabel('filter policy').fill('delete_entities');
    expect(await page.locator('main tbody tr').allTextContents()).toEqual(["mcp:memory:delete_entitiesneeds approvalno rule refuses it; a call requires approval by 'hint:destructive' in global"]);
    await page.getByLabel('filter policy').fill('');
  });

  it('lists the activity of the session logs and its own searches, filters it, and exports JSONL', async () => {
    await view('Activity');
    const text = await page.locator('main').textContent();
    expect(text).toContain('agent-7');
    expect(text).toContain('remember that alice likes tea');
    expect(await page.getByRole('alert').allTextContents()).toEqual([`session log ${missingLog} does not exist`]);
    await page.getByLabel('filter activity').fill('create_entities');
    expect(await page.locator('main tbody tr').count()).toBeGreaterThan(0);
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export JSONL' }).click();
    const file = await (await downloaded).path();
    const lines = readFileSync(file, 'utf8').split('\n').map((line) => JSON.parse(line) as { event: string });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => JSON.stringify(line).includes('create_entities'))).toBe(true);
    await shot('activity');
  });

  it("charts each mode's bytes against direct", async () => {
    await view('Bytes');
    const rows = await page.locator('main tbody tr').allTextContents();
    expect(rows.map((row) => row.split(/\d/)[0])).toEqual(['direct', 'code', 'tools', 'directory']);
    expect(rows[0]).toContain('100.0 %');
    // The bars' widths are set through the DOM (an inline style attribute is refused by the CSP): each is drawn.
    const widths = await page.locator('main .bar').evaluateAll((bars) => bars.map((bar) => bar.getBoundingClientRect().width));
    expect(widths).toHaveLength(4);
    expect(Math.max(...widths)).toBe(300);
    expect(Math.min(...widths)).toBeGreaterThanOrEqual(2);
    await shot('bytes');
  });

  it('met no CSP refusal and no script error in any view', () => {
    expect(pageErrors).toEqual([]);
  });
});

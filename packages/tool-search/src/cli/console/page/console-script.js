// @ts-check
// The console page's script: plain DOM code, no framework and no build step of its own (why: the README,
// "console"). Checked JavaScript run as text in the browser: page/tsconfig.json type-checks it (DOM, no Node)
// against the API's types in console-api.ts, ESLint lints it, and scripts/generate-console-sources.ts inlines it
// verbatim into the page (src/cli/console/console-page-sources.ts), where the CSP admits it by its sha256.
// It reads the token from its own URL once, drops it from the address bar, and sends it as a bearer token.

/** @typedef {import('../console-api.js').ConsoleRoutes} ConsoleRoutes */
/** @typedef {import('../console-api.js').ConsoleSearch} ConsoleSearch */
/** @typedef {import('../console-api.js').ConsolePolicyRow} ConsolePolicyRow */
/** @typedef {import('../console-api.js').ActivityLine} ActivityLine */
/** @typedef {import('../console-api.js').ConsoleApiError} ConsoleApiError */
/** @typedef {string | number | Node | null | undefined} Child */
/** @typedef {Record<string, string | ((event: Event) => unknown)>} Attributes */

const params = new URLSearchParams(location.search);
const token = params.get('token') || sessionStorage.getItem('tool-search-token') || '';
sessionStorage.setItem('tool-search-token', token);
if (params.has('token')) history.replaceState(null, '', location.pathname + location.hash);
const main = /** @type {HTMLElement} */ (document.getElementById('main'));
const nav = /** @type {HTMLElement} */ (document.getElementById('nav'));

/** A refused token: the page says what to do instead of the bare status. */
class TokenRefused extends Error {}

/**
 * The answer of one API route, typed by the route.
 * @template {keyof ConsoleRoutes} P
 * @param {P} path
 * @param {string} [search] the query string, with its `?`
 * @returns {Promise<ConsoleRoutes[P]>}
 */
async function api(path, search = '') {
  let response;
  try {
    response = await fetch(path + search, { headers: { Authorization: 'Bearer ' + token } });
  } catch {
    throw new Error('The console does not answer: is tool-search console still running? Start it again and open the URL it prints.');
  }
  if (response.status === 401) throw new TokenRefused();
  if (!response.ok) {
    const body = /** @type {Partial<ConsoleApiError>} */ (await response.json().catch(() => ({})));
    throw new Error((typeof body.error === 'string' ? body.error : 'the console answered HTTP ' + response.status) + ' (' + path + ')');
  }
  return response.json();
}

/** @returns {HTMLElement[]} */
function tokenPage() {
  return [el('h2', {}, 'This page needs the console\'s token'),
    el('p', {}, token === '' ? 'The address has no token.' : 'The token this page has is not the one of the running console (it is made anew each time the console starts).'),
    el('p', {}, 'Open the full URL that ', el('code', {}, 'tool-search console'), ' printed when it started: it ends in ', el('code', {}, '?token=…'), '. Lost it? Stop the console and start it again: it prints a new one.')];
}

/**
 * What to show where something failed.
 * @param {unknown} error
 * @returns {HTMLElement[]}
 */
function problem(error) {
  return error instanceof TokenRefused ? tokenPage() : [el('p', { class: 'bad', role: 'alert' }, error instanceof Error ? error.message : String(error))];
}

/**
 * An element: `class` sets the class, `on<event>` adds a listener, any other key sets that attribute (never
 * `style`: the CSP refuses inline style attributes; set `node.style` instead).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attributes} attrs
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (typeof value === 'function') node.addEventListener(key.slice(2), value);
    else if (key === 'class') node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) if (child !== undefined && child !== null) node.append(child instanceof Node ? child : String(child));
  return node;
}

/**
 * @param {string[]} headers
 * @param {Array<Array<Child | Child[]>>} rows each cell: one child, or several
 */
function table(headers, rows) {
  return el('table', {}, el('thead', {}, el('tr', {}, headers.map((h) => el('th', {}, h)))), el('tbody', {}, rows.map((cells) => el('tr', {}, cells.map((c) => el('td', {}, c))))));
}

/** @type {Record<string, () => Promise<HTMLElement[]>>} */
const views = {
  async servers() {
    const status = await api('/api/servers');
    return [el('h2', {}, 'Servers'), table(['server', 'state', 'tools', 'restarts', 'reason'], status.servers.map((s) => [
      el('code', {}, s.name), el('span', { class: s.state === 'ready' ? 'ok' : 'bad' }, s.state), s.tools, s.restarts, s.reason || '',
    ])), el('p', { class: 'muted' }, 'Catalog: ' + status.catalog.size + ' tools (' + Object.entries(status.catalog.sources).filter(([, n]) => n > 0).map(([k, n]) => k + ' ' + n).join(', ') + ')')];
  },
  async catalog() {
    const tools = await api('/api/catalog');
    const filter = el('input', { type: 'search', placeholder: 'filter by id or description', 'aria-label': 'filter tools' });
    const body = el('div', {});
    const render = () => {
      const q = filter.value.toLowerCase();
      const shown = tools.filter((t) => (t.id + ' ' + t.description).toLowerCase().includes(q));
      body.replaceChildren(table(['tool', 'description', 'trust', 'annotations', 'schema'], shown.map((t) => [
        el('code', {}, t.id), (t.title ? t.title + ': ' : '') + t.description.slice(0, 200), t.trusted ? 'trusted' : 'untrusted',
        t.annotations ? el('code', {}, JSON.stringify(t.annotations)) : '',
        el('details', {}, el('summary', {}, 'input schema'), el('pre', {}, JSON.stringify(t.inputSchema, null, 2))),
      ])), el('p', { class: 'muted' }, shown.length + ' of ' + tools.length + ' tools'));
    };
    filter.addEventListener('input', render);
    render();
    return [el('h2', {}, 'Catalog'), el('div', { class: 'tools' }, filter), body];
  },
  async search() {
    const input = el('input', { type: 'search', name: 'q', placeholder: 'what would the model search for?', 'aria-label': 'query' });
    const out = el('div', { id: 'search-result' });
    // Announced when a search ends (the results themselves are too long to read out).
    const status = el('p', { id: 'search-status', class: 'sr-only', role: 'status', 'aria-live': 'polite' });
    const form = el('form', { onsubmit: async (event) => {
      event.preventDefault();
      status.textContent = 'Searching...';
      try {
        const result = await api('/api/search', '?q=' + encodeURIComponent(input.value));
        out.replaceChildren(...renderSearch(result));
        status.textContent = result.explanation.hits.length + ' tools found, evidence ' + result.explanation.evidence;
      } catch (error) {
        out.replaceChildren(...problem(error));
        status.textContent = 'The search failed';
      }
    } }, input, el('button', { type: 'submit' }, 'Search'));
    return [el('h2', {}, 'Search'), form, status, out];
  },
  async policy() {
    const rows = await api('/api/policy');
    const refused = rows.filter((r) => !r.admitted).length;
    const approvals = rows.filter((r) => r.admitted && r.approval).length;
    /** @param {ConsolePolicyRow} r */
    const decided = (r) => r.rule ? r.by + ' · layer ' + r.layer + ' · rule ' + r.rule + ': ' + r.reason
      : r.approval ? 'no rule refuses it; a call ' + r.approval : (r.admitted ? 'no rule refuses it' : '');
    /** @param {ConsolePolicyRow} r */
    const verdict = (r) => !r.admitted ? el('span', { class: 'bad' }, 'refused') : r.approval ? el('span', { class: 'approval' }, 'needs approval') : el('span', { class: 'ok' }, 'admitted');
    const filter = el('input', { type: 'search', placeholder: 'filter by tool, rule or reason', 'aria-label': 'filter policy' });
    const onlyRefused = el('input', { type: 'checkbox', id: 'only-refused' });
    const body = el('div', {});
    const render = () => {
      const q = filter.value.toLowerCase();
      const shown = rows.filter((r) => (!onlyRefused.checked || !r.admitted) && (r.id + ' ' + decided(r)).toLowerCase().includes(q));
      body.replaceChildren(table(['tool', 'verdict', 'decided by'], shown.map((r) => [
        el('code', {}, r.id), verdict(r), decided(r),
      ])), el('p', { class: 'muted' }, shown.length + ' of ' + rows.length + ' tools'));
    };
    filter.addEventListener('input', render);
    onlyRefused.addEventListener('change', render);
    render();
    return [el('h2', {}, 'Policy'), el('p', {}, (rows.length - refused) + ' tools admitted, ' + refused + ' refused' + (approvals > 0 ? '; a call to ' + approvals + ' of the admitted needs approval' : '')),
      el('div', { class: 'tools' }, filter, el('label', { for: 'only-refused' }, onlyRefused, ' refused only')), body];
  },
  async activity() {
    const { lines, problems } = await api('/api/activity');
    const filter = el('input', { type: 'search', placeholder: 'filter (event, tool id, query...)', 'aria-label': 'filter activity' });
    const body = el('div', {});
    const shown = () => lines.filter((line) => JSON.stringify(line).toLowerCase().includes(filter.value.toLowerCase()));
    /** @param {string} name @param {string} type @param {string} text */
    const download = (name, type, text) => el('a', { href: URL.createObjectURL(new Blob([text], { type })), download: name }).click();
    /** @param {ActivityLine[]} rows */
    const toCsv = (rows) => {
      const keys = ['time', 'sessionId', 'event', 'toolCallId', 'toolId', 'query', 'status', 'durationMs'];
      return [keys.join(',')].concat(rows.map((r) => keys.map((k) => JSON.stringify(r[k] ?? '')).join(','))).join('\n');
    };
    const render = () => body.replaceChildren(table(['time', 'session', 'event', 'details'], shown().map((l) => {
      const { time, sessionId, event, ...rest } = l;
      return [new Date(time).toISOString().slice(11, 23), sessionId, event, el('code', {}, JSON.stringify(rest).slice(0, 300))];
    })));
    filter.addEventListener('input', render);
    render();
    return [el('h2', {}, 'Activity'), ...problems.map((text) => el('div', { class: 'weak problem', role: 'alert' }, text)), el('div', { class: 'tools' }, filter,
      el('button', { onclick: () => download('activity.jsonl', 'application/x-ndjson', shown().map((l) => JSON.stringify(l)).join('\n')) }, 'Export JSONL'),
      el('button', { onclick: () => download('activity.csv', 'text/csv', toCsv(shown())) }, 'Export CSV')), body];
  },
  async bytes() {
    const surfaces = await api('/api/bytes');
    const direct = surfaces.find((s) => s.requested === 'direct');
    const max = Math.max(...surfaces.map((s) => s.toolBytes + s.instructionBytes), 1);
    return [el('h2', {}, 'Bytes the model gets up front'), table(['mode', 'tools', 'bytes', '', 'against direct'], surfaces.map((s) => {
      const total = s.toolBytes + s.instructionBytes;
      const bar = el('span', { class: 'bar' + (s.requested === 'direct' ? ' direct' : '') });
      bar.style.width = Math.max(2, Math.round(300 * total / max)) + 'px';
      return [s.requested + (s.mode !== s.requested ? ' (rendered ' + s.mode + ')' : ''), s.tools, total.toLocaleString('en'), bar,
        direct ? (100 * total / Math.max(1, direct.toolBytes + direct.instructionBytes)).toFixed(1) + ' %' : ''];
    }))];
  },
};

/**
 * @param {ConsoleSearch} result
 * @returns {HTMLElement[]}
 */
function renderSearch(result) {
  const x = result.explanation;
  const parts = [el('p', {}, 'Evidence: ', el('strong', { class: x.evidence === 'weak' ? 'bad' : 'ok' }, x.evidence), ' (coverage ' + x.coverage + ', strength ' + x.strength + '; weak below ' + x.thresholds.coverage + ' and ' + x.thresholds.strength + ')'),
    el('p', {}, 'Query words: ', x.words.map((w) => el('code', { class: (w.found ? '' : 'bad') + (w.implied ? ' implied' : ''), title: (w.found ? 'some tool has it' : 'no tool has it') + (w.implied ? '; implied by how the query writes a thing (a file name, #42, how many)' : '') }, (w.implied ? '+' : '') + w.term + ' ')))];
  if (result.error) parts.push(el('p', { class: 'bad', role: 'alert' }, 'The model is told: ' + result.error));
  if (x.why) parts.push(el('div', { class: 'weak', id: 'why' }, el('strong', {}, 'Why: '), x.why));
  for (const line of result.also) parts.push(el('div', { class: 'weak also' }, el('strong', {}, 'Also: '), line));
  parts.push(table(['#', 'tool', 'score', 'matched'], x.hits.map((h, i) => [i + 1, el('code', {}, h.id), h.score.toFixed(2),
    h.matches.map((m) => el('div', {}, el('code', {}, m.term), ' via ' + m.path + (m.fields.length ? ' in ' + m.fields.join(', ') : '') + ' · ' + Math.round(100 * m.share) + ' %'))])));
  if (result.serverMap) {
    parts.push(el('h3', {}, 'What the model gets instead: the server map'));
    parts.push(table(['server', 'summary', 'tools'], result.serverMap.map((s) => [el('code', {}, s.owner), s.state === 'starting' ? 'starting: its tools are not listed yet' : s.summary, s.tools.join(', ')])));
  }
  return parts;
}

/** @param {string} name */
async function show(name) {
  const view = views[name];
  if (view === undefined) return;
  for (const button of nav.querySelectorAll('button')) {
    if (button.dataset['view'] === name) button.setAttribute('aria-current', 'page'); else button.removeAttribute('aria-current');
  }
  location.hash = name;
  main.replaceChildren(el('p', { class: 'muted' }, 'Loading...'));
  try { main.replaceChildren(...(await view())); } catch (error) { main.replaceChildren(...problem(error)); }
}
nav.addEventListener('click', (event) => {
  const view = event.target instanceof HTMLElement ? event.target.dataset['view'] : undefined;
  if (view) void show(view);
});
void show(views[location.hash.slice(1)] ? location.hash.slice(1) : 'servers');

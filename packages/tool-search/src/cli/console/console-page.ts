// The console's one page: plain DOM code and CSS, no framework and no build (why: the README, "console").
// It reads the token from its own URL once, drops it from the address bar, and sends it as a bearer token.

/** The HTML of the console, served at `/`. */
export const CONSOLE_PAGE = String.raw`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>tool-search console</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  :root { font: 14px/1.45 system-ui, sans-serif; color: #1d1f23; background: #f6f7f9; }
  header { display: flex; align-items: center; gap: 1.5rem; padding: .6rem 1.2rem; background: #1d2733; color: #fff; }
  header h1 { font-size: 1rem; margin: 0; font-weight: 600; }
  nav button { background: none; border: 0; color: #c9d3df; padding: .4rem .7rem; cursor: pointer; font: inherit; border-radius: 4px; }
  nav button[aria-current="page"] { background: #3b4b5f; color: #fff; }
  main { padding: 1rem 1.2rem; }
  table { border-collapse: collapse; width: 100%; background: #fff; }
  th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #e4e7eb; vertical-align: top; overflow-wrap: anywhere; }
  th { background: #eef1f4; font-weight: 600; }
  code, pre { font: 12px ui-monospace, monospace; }
  pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f0f2f5; padding: .5rem; margin: .3rem 0; max-width: 100%; }
  .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .ok { color: #17733b; } .bad { color: #b3261e; } .muted { color: #6b7280; } .implied { font-style: italic; }
  .bar { height: 1rem; background: #3f7bd9; display: inline-block; vertical-align: middle; }
  .bar.direct { background: #9aa4b1; }
  form, .tools { display: flex; gap: .5rem; margin-bottom: .8rem; align-items: center; }
  input[type=search], input[type=text] { flex: 1; padding: .4rem; font: inherit; }
  .weak { border-left: 4px solid #d97a1f; padding: .4rem .8rem; background: #fff7ee; margin: .6rem 0; }
</style>
</head>
<body>
<header><h1>tool-search console</h1>
<nav id="nav">
  <button data-view="servers">Servers</button><button data-view="catalog">Catalog</button><button data-view="search">Search</button>
  <button data-view="policy">Policy</button><button data-view="activity">Activity</button><button data-view="bytes">Bytes</button>
</nav></header>
<main id="main"></main>
<script type="module">
const params = new URLSearchParams(location.search);
const token = params.get('token') || sessionStorage.getItem('tool-search-token') || '';
sessionStorage.setItem('tool-search-token', token);
if (params.has('token')) history.replaceState(null, '', location.pathname + location.hash);
const main = document.getElementById('main');

/** A refused token: the page says what to do instead of the bare status. */
class TokenRefused extends Error {}
async function api(path) {
  let response;
  try {
    response = await fetch(path, { headers: { Authorization: 'Bearer ' + token } });
  } catch {
    throw new Error('The console does not answer: is tool-search console still running? Start it again and open the URL it prints.');
  }
  if (response.status === 401) throw new TokenRefused();
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new Error((body && body.error ? body.error : 'the console answered HTTP ' + response.status) + ' (' + path.split('?')[0] + ')');
  }
  return response.json();
}
function tokenPage() {
  return [el('h2', {}, 'This page needs the console\'s token'),
    el('p', {}, token === '' ? 'The address has no token.' : 'The token this page has is not the one of the running console (it is made anew each time the console starts).'),
    el('p', {}, 'Open the full URL that ', el('code', {}, 'tool-search console'), ' printed when it started: it ends in ', el('code', {}, '?token=…'), '. Lost it? Stop the console and start it again: it prints a new one.')];
}
function problem(error) {
  return error instanceof TokenRefused ? tokenPage() : [el('p', { class: 'bad', role: 'alert' }, String(error.message || error))];
}
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === 'class') node.className = value; else if (key.startsWith('on')) node.addEventListener(key.slice(2), value); else node.setAttribute(key, value);
  }
  for (const child of children.flat()) if (child !== undefined && child !== null) node.append(child instanceof Node ? child : String(child));
  return node;
}
function table(headers, rows) {
  return el('table', {}, el('thead', {}, el('tr', {}, headers.map((h) => el('th', {}, h)))), el('tbody', {}, rows.map((cells) => el('tr', {}, cells.map((c) => el('td', {}, c))))));
}

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
    const body = el('div');
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
        const result = await api('/api/search?q=' + encodeURIComponent(input.value));
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
    const decided = (r) => r.rule ? r.by + ' · layer ' + r.layer + ' · rule ' + r.rule + ': ' + r.reason : (r.admitted ? 'no rule refuses it' : '');
    const filter = el('input', { type: 'search', placeholder: 'filter by tool, rule or reason', 'aria-label': 'filter policy' });
    const onlyRefused = el('input', { type: 'checkbox', id: 'only-refused' });
    const body = el('div');
    const render = () => {
      const q = filter.value.toLowerCase();
      const shown = rows.filter((r) => (!onlyRefused.checked || !r.admitted) && (r.id + ' ' + decided(r)).toLowerCase().includes(q));
      body.replaceChildren(table(['tool', 'verdict', 'decided by'], shown.map((r) => [
        el('code', {}, r.id), el('span', { class: r.admitted ? 'ok' : 'bad' }, r.admitted ? 'admitted' : 'refused'), decided(r),
      ])), el('p', { class: 'muted' }, shown.length + ' of ' + rows.length + ' tools'));
    };
    filter.addEventListener('input', render);
    onlyRefused.addEventListener('change', render);
    render();
    return [el('h2', {}, 'Policy'), el('p', {}, (rows.length - refused) + ' tools admitted, ' + refused + ' refused'),
      el('div', { class: 'tools' }, filter, el('label', { for: 'only-refused' }, onlyRefused, ' refused only')), body];
  },
  async activity() {
    const { lines, problems } = await api('/api/activity');
    const filter = el('input', { type: 'search', placeholder: 'filter (event, tool id, query...)', 'aria-label': 'filter activity' });
    const body = el('div');
    const shown = () => lines.filter((line) => JSON.stringify(line).toLowerCase().includes(filter.value.toLowerCase()));
    const download = (name, type, text) => { const a = el('a', { href: URL.createObjectURL(new Blob([text], { type })), download: name }); a.click(); };
    const toCsv = (rows) => { const keys = ['time', 'sessionId', 'event', 'toolCallId', 'toolId', 'query', 'status', 'durationMs']; return [keys.join(',')].concat(rows.map((r) => keys.map((k) => JSON.stringify(r[k] ?? '')).join(','))).join('\n'); };
    const render = () => body.replaceChildren(table(['time', 'session', 'event', 'details'], shown().map((l) => {
      const { time, sessionId, event, ...rest } = l;
      return [new Date(time).toISOString().slice(11, 23), sessionId, event, el('code', {}, JSON.stringify(rest).slice(0, 300))];
    })));
    filter.addEventListener('input', render);
    render();
    return [el('h2', {}, 'Activity'), ...problems.map((problem) => el('div', { class: 'weak problem', role: 'alert' }, problem)), el('div', { class: 'tools' }, filter,
      el('button', { onclick: () => download('activity.jsonl', 'application/x-ndjson', shown().map((l) => JSON.stringify(l)).join('\n')) }, 'Export JSONL'),
      el('button', { onclick: () => download('activity.csv', 'text/csv', toCsv(shown())) }, 'Export CSV')), body];
  },
  async bytes() {
    const surfaces = await api('/api/bytes');
    const direct = surfaces.find((s) => s.requested === 'direct');
    const max = Math.max(...surfaces.map((s) => s.toolBytes + s.instructionBytes), 1);
    return [el('h2', {}, 'Bytes the model gets up front'), table(['mode', 'tools', 'bytes', '', 'against direct'], surfaces.map((s) => {
      const total = s.toolBytes + s.instructionBytes;
      return [s.requested + (s.mode !== s.requested ? ' (rendered ' + s.mode + ')' : ''), s.tools, total.toLocaleString('en'),
        el('span', { class: 'bar' + (s.requested === 'direct' ? ' direct' : ''), style: 'width:' + Math.max(2, Math.round(300 * total / max)) + 'px' }),
        direct ? (100 * total / Math.max(1, direct.toolBytes + direct.instructionBytes)).toFixed(1) + ' %' : ''];
    }))];
  },
};

function renderSearch(result) {
  const x = result.explanation;
  const parts = [el('p', {}, 'Evidence: ', el('strong', { class: x.evidence === 'weak' ? 'bad' : 'ok' }, x.evidence), ' (coverage ' + x.coverage + ', strength ' + x.strength + '; weak below ' + x.thresholds.coverage + ' and ' + x.thresholds.strength + ')'),
    el('p', {}, 'Query words: ', x.words.map((w) => el('code', { class: (w.found ? '' : 'bad') + (w.implied ? ' implied' : ''), title: (w.found ? 'some tool has it' : 'no tool has it') + (w.implied ? '; implied by how the query writes a thing (a file name, #42, how many)' : '') }, (w.implied ? '+' : '') + w.term + ' ')))];
  if (x.why) parts.push(el('div', { class: 'weak', id: 'why' }, el('strong', {}, 'Why: '), x.why));
  for (const line of result.also || []) parts.push(el('div', { class: 'weak also' }, el('strong', {}, 'Also: '), line));
  parts.push(table(['#', 'tool', 'score', 'matched'], x.hits.map((h, i) => [i + 1, el('code', {}, h.id), h.score.toFixed(2),
    h.matches.map((m) => el('div', {}, el('code', {}, m.term), ' via ' + m.path + (m.fields.length ? ' in ' + m.fields.join(', ') : '') + ' · ' + Math.round(100 * m.share) + ' %'))])));
  const answer = result.answer;
  if (answer && !Array.isArray(answer) && answer.servers) {
    parts.push(el('h3', {}, 'What the model gets instead: the server map'));
    parts.push(table(['server', 'summary', 'tools'], answer.servers.servers.map((s) => [el('code', {}, s.owner), s.summary, s.tools.join(', ')])));
  }
  return parts;
}

async function show(name) {
  for (const button of document.querySelectorAll('#nav button')) {
    if (button.dataset.view === name) button.setAttribute('aria-current', 'page'); else button.removeAttribute('aria-current');
  }
  location.hash = name;
  main.replaceChildren(el('p', { class: 'muted' }, 'Loading...'));
  try { main.replaceChildren(...(await views[name]())); } catch (error) { main.replaceChildren(...problem(error)); }
}
document.getElementById('nav').addEventListener('click', (event) => { const view = event.target.dataset && event.target.dataset.view; if (view) show(view); });
show(views[location.hash.slice(1)] ? location.hash.slice(1) : 'servers');
</script>
</body>
</html>
`;

// pnpm bench:surface: bytes of each mode in each provider format for catalogs of 100, 1,000 and 10,000
// tools drawn from the benchmark data (packages/catalog/bench/data), and the ratio to direct. Prints tables; never asserts on time.
// Native mode is rendered per format (OpenAI Chat falls back to tools mode); its row shows the request
// bytes and, after the slash, the up-front bytes (the tools array without the deferred definitions).
//
// Data: the `mixed` set of packages/catalog/bench/data (override: --data <file>, a tools.jsonl). Selection is deterministic:
// for n tools, lines floor(i * total / n) for i < n, so every size spans every benchmark source.
// Mapping to ToolInput: source `plugin` (so every tool is trusted and eligible for the directory),
// owner = the line's `source` field (sealtools, apigen, ...), name = the line's name with characters the
// catalog does not accept replaced by `_` (dots are kept: they exercise the provider-name rewrite),
// description as given, inputSchema = `parameters` when it is an object. A name that repeats within an
// owner after that mapping is skipped (and counted).
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { createCatalog, type ToolInput } from '@tool-search/catalog';
// This package from source (tsx runs it); the catalog from its built dist, as a consumer would.
import { measureSurface, renderSurface, type Mode, type Surface, type SurfaceFormat } from '../src/index.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const dataFlag = process.argv.indexOf('--data');
// Default: the `mixed` set of the dev data kept in the repository, the tools of the sets its union.json lists, in
// that order (the same lines as one mixed/tools.jsonl), each file plain or gzipped.
const dataDir = `${repoRoot}packages/catalog/bench/data/`;
const readLines = (file: string) => (file.endsWith('.gz') ? gunzipSync(readFileSync(file)) : readFileSync(file)).toString('utf8').split('\n').filter((line) => line.trim() !== '');
const setToolsFile = (set: string) => [`${dataDir}${set}/tools.jsonl`, `${dataDir}${set}/tools.jsonl.gz`].find((file) => existsSync(file)) as string;
const lines =
  dataFlag === -1
    ? (JSON.parse(readFileSync(`${dataDir}mixed/union.json`, 'utf8')) as { sets: string[] }).sets.flatMap((set) => readLines(setToolsFile(set)))
    : readLines(process.argv[dataFlag + 1] as string);

interface BenchTool {
  name: string;
  description?: string;
  parameters?: unknown;
  source: string;
}

const allTools = lines.map((line) => JSON.parse(line) as BenchTool);

function toToolInput(tool: BenchTool): ToolInput {
  const parameters = tool.parameters;
  return {
    name: tool.name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 128),
    source: 'plugin',
    owner: tool.source.replace(/[^A-Za-z0-9_.@/-]/g, '_'),
    description: tool.description ?? '',
    ...(parameters !== null && typeof parameters === 'object' && !Array.isArray(parameters)
      ? { inputSchema: parameters as Record<string, unknown> }
      : {}),
  };
}

function select(count: number): { tools: ToolInput[]; skipped: number } {
  const seen = new Set<string>();
  const tools: ToolInput[] = [];
  let skipped = 0;
  for (let index = 0; index < count; index += 1) {
    const tool = toToolInput(allTools[Math.floor((index * allTools.length) / count)] as BenchTool);
    const key = `${tool.owner}:${tool.name}`;
    if (seen.has(key)) {
      skipped += 1;
      continue;
    }
    seen.add(key);
    tools.push(tool);
  }
  return { tools, skipped };
}

const MODES: Mode[] = ['direct', 'code', 'tools', 'directory'];
const FORMATS: SurfaceFormat[] = ['openai-chat', 'openai-responses', 'anthropic'];
const number = (value: number) => value.toLocaleString('en-US');
const percent = (value: number) => (value >= 10 ? `${value.toFixed(0)}%` : value >= 1 ? `${value.toFixed(1)}%` : `${value.toFixed(2)}%`);

const failures: string[] = [];
console.log(`# Surface bytes (tools JSON + instructions, UTF-8), data: ${allTools.length} tools from ${dataFlag === -1 ? "the bench data's mixed set" : (process.argv[dataFlag + 1] as string)}\n`);
for (const size of [100, 1_000, 10_000]) {
  const { tools, skipped } = select(size);
  const catalog = createCatalog(tools);
  console.log(`## ${number(catalog.size)} tools${skipped > 0 ? ` (${skipped} skipped: name repeated within an owner)` : ''}\n`);
  console.log(`| mode | ${FORMATS.join(' | ')} | tools declared | instruction bytes |`);
  console.log(`| --- | ${FORMATS.map(() => '---:').join(' | ')} | ---: | ---: |`);
  const direct = renderSurface({ mode: 'direct', catalog });
  const directBytes = Object.fromEntries(FORMATS.map((format) => [format, measureSurface(direct, format).totalBytes]));
  const nativeSurfaces = new Map<SurfaceFormat, Surface>(FORMATS.map((format) => [format, renderSurface({ mode: 'native', format, catalog })]));
  for (const mode of MODES) {
    const surface = mode === 'direct' ? direct : renderSurface({ mode, catalog });
    const cells = FORMATS.map((format) => {
      const bytes = measureSurface(surface, format).totalBytes;
      const ratio = (100 * bytes) / (directBytes[format] as number);
      if ((mode === 'code' || mode === 'tools') && bytes > 3_000) failures.push(`${mode} at ${size} (${format}): ${bytes} B > 3,000`);
      if (mode === 'directory' && bytes > 14_000) failures.push(`directory at ${size} (${format}): ${bytes} B > 14,000`);
      if ((mode === 'code' || mode === 'tools') && size === 1_000 && ratio > 2) failures.push(`${mode} at 1,000 (${format}): ${percent(ratio)} of direct > 2%`);
      return mode === 'direct' ? number(bytes) : `${number(bytes)} (${percent(ratio)})`;
    });
    console.log(`| ${mode} | ${cells.join(' | ')} | ${surface.tools.length} | ${number(measureSurface(surface, 'anthropic').instructionBytes)} |`);
  }
  const nativeCells = FORMATS.map((format) => {
    const surface = nativeSurfaces.get(format) as Surface;
    const measure = measureSurface(surface, format);
    const ratio = (100 * measure.totalBytes) / (directBytes[format] as number);
    if (surface.mode !== 'native') return `${number(measure.totalBytes)} (${percent(ratio)}; ${surface.mode} mode)`;
    return `${number(measure.totalBytes)} (${percent(ratio)}) / ${number(measure.upFrontToolBytes + measure.instructionBytes)}`;
  });
  const nativeDeclared = FORMATS.map((format) => (nativeSurfaces.get(format) as Surface).tools.length);
  console.log(`| native | ${nativeCells.join(' | ')} | ${nativeDeclared.join(' / ')} | ${number(measureSurface(nativeSurfaces.get('anthropic') as Surface, 'anthropic').instructionBytes)} |`);
  const responses = nativeSurfaces.get('openai-responses') as Surface;
  const namespaces = new Set(responses.tools.flatMap((tool) => (tool.namespace ? [tool.namespace.name] : [])));
  console.log(`\nnative: ${measureSurface(responses, 'openai-responses').deferredTools} deferred tools in ${namespaces.size} namespaces (OpenAI Responses); OpenAI Chat: ${(nativeSurfaces.get('openai-chat') as Surface).fallbackReason}`);
  const directory = renderSurface({ mode: 'directory', catalog });
  const rows = directory.instructions.split('\n').filter((line) => line.startsWith('- ')).length;
  console.log(`directory: ${rows} of ${catalog.size} tools listed, ${directory.hydratable.size} hydratable names\n`);
}
console.log('Targets: code and tools <= 3,000 B at every size; directory <= 14,000 B; code and tools <= 2% of direct at 1,000 tools.');
if (failures.length === 0) console.log('All targets met.');
else {
  console.log(`Missed:\n${failures.map((failure) => `- ${failure}`).join('\n')}`);
  process.exitCode = 1;
}

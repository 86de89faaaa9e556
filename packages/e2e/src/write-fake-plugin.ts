// The fake plugin: N tools with distinct, non-trivial descriptions and a strict `{ marker: string }` schema,
// written to a folder as an ES module and loaded by path like any plugin.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The default number of fake plugin tools. */
export const DEFAULT_FAKE_TOOL_COUNT = 1_000;

/** The fake plugin's owner name (the middle segment of its tool ids). */
export const FAKE_PLUGIN_NAME = 'fakeplugin';

/** The prefix every fake tool result starts with. */
export const FAKE_PLUGIN_OK = 'FAKE_PLUGIN_OK';

/** One fake tool as it is written into the plugin module. */
export interface FakeToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** A token unique to this tool's schema: finding it in a request body means the schema was sent. */
  schemaToken: string;
}

const VERBS = [
  ['reconcile', 'Reconciles'],
  ['forecast', 'Forecasts'],
  ['audit', 'Audits'],
  ['archive', 'Archives'],
  ['rebalance', 'Rebalances'],
  ['validate', 'Validates'],
  ['summarize', 'Summarizes'],
  ['escalate', 'Escalates'],
  ['schedule', 'Schedules'],
  ['quarantine', 'Quarantines'],
  ['translate', 'Translates'],
  ['benchmark', 'Benchmarks'],
  ['deduplicate', 'Deduplicates'],
  ['reprice', 'Reprices'],
  ['provision', 'Provisions'],
  ['throttle', 'Throttles'],
  ['notarize', 'Notarizes'],
  ['geocode', 'Geocodes'],
  ['anonymize', 'Anonymizes'],
  ['backfill', 'Backfills'],
] as const;

const OBJECTS = [
  ['invoice', 'invoice ledgers'],
  ['shipment', 'inbound shipment manifests'],
  ['payroll', 'payroll batches'],
  ['warranty', 'warranty claims'],
  ['telemetry', 'sensor telemetry streams'],
  ['contract', 'supplier contracts'],
  ['ticket', 'customer support tickets'],
  ['inventory', 'cold-storage inventory counts'],
  ['refund', 'pending refund requests'],
  ['timesheet', 'contractor timesheets'],
  ['catalog', 'product catalog entries'],
  ['lease', 'equipment lease agreements'],
  ['vaccine', 'vaccine lot records'],
  ['fleet', 'delivery fleet routes'],
  ['grant', 'research grant budgets'],
  ['permit', 'building permit applications'],
  ['subscription', 'subscription renewals'],
  ['audit_trail', 'access audit trails'],
  ['recipe', 'kitchen recipe costings'],
  ['tariff', 'customs tariff codes'],
  ['donation', 'charity donation pledges'],
  ['firmware', 'device firmware rollouts'],
  ['harvest', 'crop harvest yields'],
  ['mortgage', 'mortgage escrow statements'],
  ['clinic', 'clinic appointment waitlists'],
] as const;

const REGIONS = ['aurora', 'basalt', 'cinder', 'delta', 'ember', 'fjord', 'granite', 'harbor'] as const;

const QUALIFIERS = [
  'and flags every discrepancy above the configured tolerance',
  'then emails a digest to the owning team',
  'keeping an immutable history of each revision',
  'using the previous fiscal quarter as the baseline',
  'and opens a follow-up task when a threshold is crossed',
  'with a dry-run preview before anything is committed',
  'and attaches the evidence to the compliance register',
] as const;

/** The schema tokens of the fake tools (`FAKE_SCHEMA_0421`), as they appear in a request body. */
const SCHEMA_TOKEN = /FAKE_SCHEMA_\d{4}/g;

/** The distinct fake schema tokens in a text (a request body): which fake tool schemas it carries. */
export function fakeSchemaTokens(text: string): Set<string> {
  return new Set(text.match(SCHEMA_TOKEN) ?? []);
}

function pad(index: number): string {
  return String(index).padStart(4, '0');
}

/**
 * The fake tool specs, deterministic for a count: every name and description differs (a verb × object ×
 * region combination), each schema is strict `{ marker: string }` and carries its own schema token.
 */
export function fakeToolSpecs(count: number = DEFAULT_FAKE_TOOL_COUNT): FakeToolSpec[] {
  const capacity = VERBS.length * OBJECTS.length * REGIONS.length;
  if (!Number.isInteger(count) || count < 1 || count > capacity) {
    throw new RangeError(`fake tool count: expected an integer from 1 to ${capacity}, got ${count}`);
  }
  const specs: FakeToolSpec[] = [];
  for (let index = 0; index < count; index += 1) {
    const [verb, verbPhrase] = VERBS[index % VERBS.length]!;
    const [object, objectPhrase] = OBJECTS[Math.floor(index / VERBS.length) % OBJECTS.length]!;
    const region = REGIONS[Math.floor(index / (VERBS.length * OBJECTS.length)) % REGIONS.length]!;
    const qualifier = QUALIFIERS[index % QUALIFIERS.length]!;
    const name = `fake_${verb}_${object}_${region}`;
    const schemaToken = `FAKE_SCHEMA_${pad(index)}`;
    specs.push({
      name,
      description: `${verbPhrase} ${objectPhrase} for the ${region[0]!.toUpperCase()}${region.slice(1)} region, ${qualifier}.`,
      schemaToken,
      inputSchema: {
        type: 'object',
        properties: {
          marker: { type: 'string', description: `Opaque marker echoed back in the result (${schemaToken}).` },
        },
        required: ['marker'],
        additionalProperties: false,
      },
    });
  }
  return specs;
}

/** Where a fake plugin was written, and what it holds. */
export interface WrittenFakePlugin {
  /** Absolute path of the plugin module. */
  path: string;
  /** The plugin's owner name. */
  name: string;
  tools: FakeToolSpec[];
}

/** Options for `writeFakePlugin`. */
export interface WriteFakePluginOptions {
  /** The folder to write into (created if missing). */
  dir: string;
  /** Default 1,000. */
  count?: number;
  /** File name; default `fake-plugin.mjs`. */
  fileName?: string;
}

/**
 * Writes the fake plugin module (`export const name`, `export const tools`) into `dir`. Each tool returns
 * `FAKE_PLUGIN_OK <name> <input as JSON>`.
 */
export async function writeFakePlugin(options: WriteFakePluginOptions): Promise<WrittenFakePlugin> {
  const tools = fakeToolSpecs(options.count ?? DEFAULT_FAKE_TOOL_COUNT);
  await mkdir(options.dir, { recursive: true });
  const path = join(options.dir, options.fileName ?? 'fake-plugin.mjs');
  const data = tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  const source = [
    '// Generated by @tool-search/e2e: a fake plugin for the end-to-end proof.',
    `export const name = ${JSON.stringify(FAKE_PLUGIN_NAME)};`,
    `const specs = ${JSON.stringify(data)};`,
    'export const tools = specs.map((spec) => ({',
    '  ...spec,',
    `  async execute(input) { return ${JSON.stringify(`${FAKE_PLUGIN_OK} `)} + spec.name + ' ' + JSON.stringify(input); },`,
    '}));',
    '',
  ].join('\n');
  await writeFile(path, source, 'utf8');
  return { path, name: FAKE_PLUGIN_NAME, tools };
}

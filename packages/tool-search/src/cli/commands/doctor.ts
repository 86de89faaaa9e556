// `tool-search doctor`: is everything in order? The config (problems with their paths), which servers start
// (and for those that do not, the reason with the tail of their stderr), tool counts, what each mode costs an
// MCP client next to direct, whether code mode's sandbox runtime is there, and, with an `embedder`, whether it
// answers and how long embedding the catalog took. Exit 0 when all is well.
import { EXIT_CODES } from '../exit-codes.js';
import { isCliError } from '../cli-error.js';
import type { CommandRun } from '../command.js';
import type { LoadedConfig } from '../load-config.js';
import { measureMcpSurface, SURFACE_MODES, type McpSurfaceMeasure } from '../measure-mcp-surface.js';
import { policyRefusalsByServer, unansweredApprovals } from '../policy-refusals.js';
import { startHost, type StartedHost } from '../start-host.js';

/** How long doctor waits for servers' first start unless the config says. */
const DOCTOR_STARTUP_MS = 15_000;

/** `tool-search doctor` (see its summary in `run-cli.ts`). */
export const runDoctor: CommandRun = async (context) => {
    const { output } = context;
    let config: LoadedConfig;
    try {
      config = context.config();
    } catch (error) {
      if (!isCliError(error)) throw error;
      output.result({ config: { path: context.configPath, ok: false, problem: error.message, ...(error.path === undefined ? {} : { path: error.path }) } });
      output.line(`Config ${context.configPath}`);
      output.line(`  ✗ ${error.message}`);
      return EXIT_CODES.config;
    }
    const startupMs = config.startupTimeoutMs ?? DOCTOR_STARTUP_MS;
    const started = await startHost(config, { logger: context.logger, output, startupTimeoutMs: startupMs, interactiveOAuth: false });
    try {
      await started.settled(startupMs);
      const status = started.host.status();
      const surfaces: Array<McpSurfaceMeasure & { requested: string }> = [];
      for (const { mode, setting } of SURFACE_MODES) {
        const settingWithFile = setting === false ? false : { ...(typeof config.toolSearch === 'object' && config.toolSearch !== null ? config.toolSearch : {}), enabled: true, ...setting };
        surfaces.push({ requested: mode, ...(await measureMcpSurface(started.host, config, settingWithFile)) });
      }
      const direct = surfaces[0]!;
      const code = surfaces[1]!;
      const notStarted = config.failedServers.map((server) => ({ name: server.name, state: 'not_started' as const, reason: server.reason }));
      const down = [...status.servers.filter((server) => server.state !== 'ready'), ...notStarted];
      const embedder = started.embedder === undefined ? undefined : await checkEmbedder(started, config);
      const refusals = await policyRefusalsByServer(started.host, config);
      const refusalsOf = (server: string) => refusals.find((entry) => entry.server === server);
      // A rule that refuses every tool of a server is almost always a surprise (hint:destructive on a server that declares no annotations).
      const policyWarnings = refusals
        .filter((entry) => entry.tools > 0 && entry.refused === entry.tools)
        .map((entry) => `the policy refuses all ${entry.tools} tool${entry.tools === 1 ? '' : 's'} of ${entry.server}: ${entry.reasons.slice(0, 3).join('; ')}`);
      // The same for approvals: every call to a whole server before a person (and blocked when nobody is asked).
      const unanswered = unansweredApprovals(config);
      const approvalLines = refusals
        .filter((entry) => entry.needApproval > 0)
        .map((entry) => {
          const all = entry.needApproval === entry.tools;
          const count = all ? `all ${entry.tools} tool${entry.tools === 1 ? '' : 's'}` : `${entry.needApproval} of ${entry.tools} tools`;
          return { all, line: `a call to ${count} of ${entry.server} needs approval${unanswered}: ${entry.approvalReasons.slice(0, 3).join('; ')}` };
        });
      policyWarnings.push(...approvalLines.filter((entry) => entry.all).map((entry) => entry.line));
      output.result({
        config: { path: config.path, ok: true, warnings: config.warnings, mode: config.resolved.mode },
        servers: [...status.servers, ...notStarted],
        catalog: status.catalog,
        codeMode: code.mode === 'code' ? { available: true } : { available: false, reason: code.fallbackReason ?? 'unknown' },
        surfaces,
        policy: { refusals, warnings: policyWarnings },
        ...(embedder === undefined ? {} : { embedder }),
        ok: down.length === 0 && embedder?.ok !== false,
      });
      const serverCount = config.servers.length + notStarted.length;
      output.line(`Config ${config.path}: ok (${serverCount} server${serverCount === 1 ? '' : 's'}, mode ${config.resolved.mode})`);
      for (const warning of config.warnings) output.line(`  ! ${warning}`);
      output.line('');
      output.line('MCP servers');
      for (const server of status.servers) {
        if (server.state === 'ready') {
          const withheld = server.withheld.length === 0 ? '' : `, ${server.withheld.length} withheld (${server.withheld.map((tool) => `${tool.name}: ${tool.reason}`).join('; ').slice(0, 200)})`;
          const refused = refusalsOf(server.name)?.refused ?? 0;
          const needApproval = refusalsOf(server.name)?.needApproval ?? 0;
          const policyNote = `${refused === 0 ? '' : `, ${refused} refused by the policy`}${needApproval === 0 ? '' : `, ${needApproval} need approval`}`;
          output.line(`  ✓ ${server.name.padEnd(24)} ${String(server.tools).padStart(4)} tools${policyNote}${withheld}`);
        } else {
          output.line(`  ✗ ${server.name.padEnd(24)} ${server.state}: ${(server.reason ?? 'no reason given').replace(/\n/g, '\n      ')}`);
        }
      }
      for (const server of notStarted) output.line(`  ✗ ${server.name.padEnd(24)} ${server.reason}`);
      if (status.servers.length === 0 && notStarted.length === 0) output.line('  (none configured)');
      output.line(`  catalog: ${status.catalog.size} tools`);
      for (const warning of policyWarnings) output.line(`  ! ${warning}`);
      for (const entry of approvalLines.filter((entry) => !entry.all)) output.line(`  - ${entry.line}`);
      if (embedder !== undefined) {
        output.line('');
        output.line(`Embedder ${embedder.model} at ${embedder.baseUrl}`);
        output.line(embedder.ok ? `  ✓ answers: ${embedder.dimensions} dimensions, one query in ${embedder.queryMs} ms` : `  ✗ ${embedder.error ?? 'no answer'}; searches answer lexically`);
        const { catalog } = embedder;
        output.line(`  catalog: ${catalog.vectors} of ${status.catalog.size} tools have vectors: ${catalog.embedded} embedded in ${(catalog.ms / 1000).toFixed(1)} s, ${catalog.fromCache} from the cache${catalog.failed > 0 ? `, ${catalog.failed} failed` : ''}`);
        output.line(`  cache: ${embedder.cacheFile}`);
      }
      output.line('');
      output.line(`Code mode runtime: ${code.mode === 'code' ? 'available' : `not available (${code.fallbackReason ?? 'unknown'}); code mode falls back to tools mode`}`);
      output.line('');
      output.line('tools/list an MCP client gets, per mode');
      // With no tools, direct lists nothing and each mode only its control tools: a ratio would say nothing (82250.0 %).
      const comparable = direct.tools > 0;
      output.line(`  mode        tools       bytes${comparable ? '   vs direct' : ''}`);
      for (const surface of surfaces) {
        const share = !comparable || direct.toolBytes === 0 ? '' : `${((100 * surface.toolBytes) / direct.toolBytes).toFixed(1)} %`;
        const label = surface.requested === surface.mode ? surface.mode : `${surface.requested}→${surface.mode}`;
        output.line(`  ${label.padEnd(10)} ${String(surface.tools).padStart(6)} ${surface.toolBytes.toLocaleString('en-US').padStart(11)}${comparable ? `   ${share.padStart(8)}` : ''}`);
      }
      if (!comparable) output.line('  (no tools in the catalog: each mode lists only its own control tools, so there is nothing to compare)');
      return down.length === 0 && embedder?.ok !== false ? EXIT_CODES.ok : EXIT_CODES.unavailable;
    } finally {
      await started.close();
    }
};

/** What doctor reports of the embedder: one query embedded (does it answer?), then the whole catalog, timed. */
interface EmbedderCheck {
  model: string;
  baseUrl: string;
  ok: boolean;
  dimensions?: number;
  queryMs?: number;
  error?: string;
  catalog: { vectors: number; embedded: number; fromCache: number; failed: number; ms: number };
  cacheFile: string;
}

async function checkEmbedder(started: StartedHost, config: LoadedConfig): Promise<EmbedderCheck> {
  const { embedder, cache } = started.embedder!;
  const { model, baseUrl } = config.embedder!.options;
  let probe: Pick<EmbedderCheck, 'ok' | 'dimensions' | 'queryMs' | 'error'>;
  const queryStarted = performance.now();
  try {
    const [vector] = await embedder.embed(['tool-search doctor'], { kind: 'query' });
    probe = { ok: true, dimensions: vector?.length ?? 0, queryMs: Math.round(performance.now() - queryStarted) };
  } catch (error) {
    probe = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  const catalogStarted = performance.now();
  const update = await started.host.updateEmbeddings();
  const ms = Math.round(performance.now() - catalogStarted);
  return {
    model,
    baseUrl,
    ...probe,
    ...(probe.ok && update.error !== undefined ? { ok: false, error: update.error } : {}),
    catalog: { vectors: update.vectors, embedded: update.embedded, fromCache: update.fromCache, failed: update.failed, ms },
    cacheFile: cache.file,
  };
}

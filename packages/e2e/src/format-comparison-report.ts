// The demo's readable report: one row per mode, the modes rendered in place of another (and why), the saving
// against direct, then the proofs.
import { parseToolId } from '@tool-search/catalog';
import type { ProviderApi } from './resolve-script-reply.js';
import { CLIENT_TOOLS, type ComparisonResult, type ModeReport } from './run-comparison.js';

const API_NAMES: Readonly<Record<ProviderApi, string>> = {
  responses: 'OpenAI Responses',
  chat: 'OpenAI Chat Completions',
  anthropic: 'Anthropic Messages',
};

function kilobytes(bytes: number): string {
  return bytes >= 10_000 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes} B`;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** The mode, or `asked→rendered` when another mode was rendered in its place. */
function modeLabel(report: ModeReport): string {
  if (report.variant === 'chat-load') return 'native (chat load)';
  return report.renderedMode && report.renderedMode !== report.mode ? `${report.mode}→${report.renderedMode}` : report.mode;
}

function finalTool(report: ModeReport): string {
  if (!report.finalTool) return '(none)';
  const name = parseToolId(report.finalTool.id)?.name ?? report.finalTool.id;
  return `${name} (${report.finalTool.source}${report.finalTool.status === 'ok' ? '' : `, ${report.finalTool.status}`})`;
}

/** Declared on the first turn, then what reached the model's context on each turn (`1036 / 4 → 12 → 12`). */
function schemas(report: ModeReport): string {
  const first = report.schemasPerTurn[0];
  if (!first) return '-';
  return `${first.declared} / ${report.schemasPerTurn.map((turn) => turn.inContext).join(' → ')}`;
}

function searches(report: ModeReport): string {
  return report.nativeSearches > 0 ? `${report.searches} (native) / ${report.describes} / ${report.calls}` : `${report.searches} / ${report.describes} / ${report.calls}`;
}

function percentSaved(bytes: number, direct: number): string {
  if (direct === 0) return '-';
  const share = (bytes / direct) * 100;
  const change = share <= 100 ? `${(100 - share).toFixed(1)}% smaller` : `${(share - 100).toFixed(1)}% larger`;
  return `${change} (${share.toFixed(2)}% of direct)`;
}

/** Renders the comparison as plain text: the per-mode table, fallbacks, the saving against direct and the proofs. */
export function formatComparisonReport(result: ComparisonResult): string {
  const rows = result.reports.map((report) => [
    modeLabel(report),
    kilobytes(report.firstRequestBytes),
    kilobytes(report.totalRequestBytes),
    String(report.providerRequests),
    String(report.toolsDeclared),
    schemas(report),
    String(report.instructionChars),
    searches(report),
    finalTool(report),
    `${report.wallTimeMs} ms`,
  ]);
  const catalog = result.reports[0]?.telemetry?.catalog;
  const sources = catalog
    ? Object.entries(catalog.sources)
        .filter(([, count]) => count > 0)
        .map(([source, count]) => `${source} ${count}`)
        .join(', ')
    : `plugin ${result.toolCount}`;
  const lines = [
    `Tool search comparison over the ${API_NAMES[result.api]} API${result.stream ? ' (SSE)' : ''}: the same request through the same gateway in each mode.`,
    `Catalog: ${catalog?.size ?? '?'} tools (${sources}) + ${CLIENT_TOOLS.length} client tools sent with the request.`,
    `Request: ${JSON.stringify(result.task.prompt)}`,
    '',
    table(
      [
        'mode',
        'first request',
        'all requests',
        'turns',
        'tools declared',
        'schemas declared / in context per turn',
        'instruction chars',
        'search / describe / call',
        'final tool (source)',
        'wall time',
      ],
      rows,
    ),
  ];
  const fallbacks = result.reports.filter((report) => report.renderedMode !== undefined && report.renderedMode !== report.mode);
  if (fallbacks.length > 0) {
    lines.push('', 'Rendered in place of the mode asked for:');
    for (const report of fallbacks) lines.push(`  ${modeLabel(report)}: ${report.fallbackReason ?? '(no reason recorded in the session log)'}`);
  }
  const native = result.reports.find((report) => report.mode === 'native' && report.renderedMode === 'native' && report.variant === undefined);
  if (native) {
    const inContext = native.schemasPerTurn.map((turn) => turn.inContext);
    lines.push(
      '',
      `Native mode: the request declares ${native.schemasPerTurn[0]?.declared ?? '?'} tool definitions, ${native.schemasPerTurn[0]?.deferred ?? '?'} of them deferred;`,
      `  the model's context holds ${inContext[0] ?? '?'} before its search and ${inContext.at(-1) ?? '?'} after (${native.nativeLoadedIds.length} loaded by ${native.nativeSearches} provider tool search${native.nativeSearches === 1 ? '' : 'es'} our catalog answered).`,
    );
  }
  const chatLoad = result.reports.find((report) => report.variant === 'chat-load');
  if (chatLoad) {
    lines.push(
      '',
      `Native (chat load): deferral on a chat endpoint that has none (nativeSearch.chat: 'load', over OpenAI Chat Completions): the functions per request go ${chatLoad.toolNamesPerRequest.map((names) => names.length).join(' → ')},`,
      `  ${chatLoad.toolsAppendOnly ? 'each request repeating the previous one\'s tools byte for byte before the ones its search loaded' : 'NOT append-only'}; the model calls the loaded tool by name, through the same policy and approvals.`,
    );
  }
  const direct = result.reports.find((report) => report.mode === 'direct');
  if (direct) {
    lines.push('', 'Saving against direct (provider request bytes):');
    for (const report of result.reports) {
      if (report.mode === 'direct') continue;
      lines.push(
        `  ${modeLabel(report).padEnd(12)} first request ${percentSaved(report.firstRequestBytes, direct.firstRequestBytes)}; whole run ${percentSaved(report.totalRequestBytes, direct.totalRequestBytes)}`,
      );
    }
    // Native mode's request is not smaller: every definition still travels, deferred. Its gain is the context.
    const directInContext = direct.schemasPerTurn.map((turn) => turn.inContext);
    if (native && directInContext.length > 0) {
      lines.push(
        `  native saves context, not bytes: the provider still receives every definition (deferred), but the model's context holds ${native.schemasPerTurn.map((turn) => turn.inContext).join(' → ')} definitions per turn against direct's ${directInContext.join(' → ')}.`,
      );
    }
  }
  // The one mode that starts a sandbox: its first run pays for it.
  const code = result.reports.find((report) => report.mode === 'code' && (report.renderedMode ?? 'code') === 'code');
  const others = result.reports.filter((report) => report.mode !== 'code').map((report) => report.wallTimeMs);
  if (code && others.length > 0 && code.wallTimeMs > Math.max(...others)) {
    lines.push(
      '',
      `Code mode's wall time (${code.wallTimeMs} ms, against ${Math.min(...others)}-${Math.max(...others)} ms for the others) includes its sandbox's first start: finding which runtime is there and starting it (a locked-down Node child process, or the QuickJS-WASM engine) before the model's code runs; the other modes run no sandbox.`,
    );
  }
  const failed = result.proofs.filter((proof) => !proof.ok);
  lines.push('', `Proofs: ${result.proofs.length - failed.length} of ${result.proofs.length} passed`);
  for (const proof of result.proofs) lines.push(`  ${proof.ok ? 'ok  ' : 'FAIL'} ${proof.id} ${proof.detail}`);
  return lines.join('\n');
}

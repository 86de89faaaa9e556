// The demo's readable report: one row per mode, then the saving against direct, then the proofs.
import { parseToolId } from '@tool-search/catalog';
import { CLIENT_TOOLS, type ComparisonResult, type ModeReport } from './run-comparison.js';

function kilobytes(bytes: number): string {
  return bytes >= 10_000 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes} B`;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

function finalTool(report: ModeReport): string {
  if (!report.finalTool) return '(none)';
  const name = parseToolId(report.finalTool.id)?.name ?? report.finalTool.id;
  return `${name} (${report.finalTool.source}${report.finalTool.status === 'ok' ? '' : `, ${report.finalTool.status}`})`;
}

function percentSaved(bytes: number, direct: number): string {
  if (direct === 0) return '-';
  return `${(100 - (bytes / direct) * 100).toFixed(1)}% smaller (${((bytes / direct) * 100).toFixed(2)}% of direct)`;
}

/** Renders the comparison as plain text: the per-mode table, the saving against direct and the proofs. */
export function formatComparisonReport(result: ComparisonResult): string {
  const rows = result.reports.map((report) => [
    report.renderedMode && report.renderedMode !== report.mode ? `${report.mode}→${report.renderedMode}` : report.mode,
    kilobytes(report.firstRequestBytes),
    kilobytes(report.totalRequestBytes),
    String(report.providerRequests),
    String(report.toolsDeclared),
    String(report.instructionChars),
    `${report.searches} / ${report.describes} / ${report.calls}`,
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
    `Tool search comparison over the ${result.api} API${result.stream ? ' (SSE)' : ''}: the same request through the same gateway in each mode.`,
    `Catalog: ${catalog?.size ?? '?'} tools (${sources}) + ${CLIENT_TOOLS.length} client tools sent with the request.`,
    `Request: ${JSON.stringify(result.task.prompt)}`,
    '',
    table(
      ['mode', 'first request', 'all requests', 'turns', 'tools declared', 'instruction chars', 'search / describe / call', 'final tool (source)', 'wall time'],
      rows,
    ),
  ];
  const direct = result.reports.find((report) => report.mode === 'direct');
  if (direct) {
    lines.push('', 'Saving against direct (provider request bytes):');
    for (const report of result.reports) {
      if (report.mode === 'direct') continue;
      lines.push(
        `  ${report.mode.padEnd(9)} first request ${percentSaved(report.firstRequestBytes, direct.firstRequestBytes)}; whole run ${percentSaved(report.totalRequestBytes, direct.totalRequestBytes)}`,
      );
    }
  }
  const failed = result.proofs.filter((proof) => !proof.ok);
  lines.push('', `Proofs: ${result.proofs.length - failed.length} of ${result.proofs.length} passed`);
  for (const proof of result.proofs) lines.push(`  ${proof.ok ? 'ok  ' : 'FAIL'} ${proof.id} ${proof.detail}`);
  return lines.join('\n');
}

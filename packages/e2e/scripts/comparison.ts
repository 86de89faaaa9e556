// `pnpm e2e` and `pnpm demo`: run the comparison in every mode (direct, code, tools, directory, native) and
// print its table and proofs per wire format. The one place where failures become exit codes: 1 when a proof
// fails, 2 when the run itself breaks.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatComparisonReport, runComparison, type ComparisonResult, type ProviderApi } from '../src/index.js';
import { runMain } from './run-main.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

const USAGE = `Usage: comparison [--demo] [--api responses|chat|anthropic|all] [--stream] [--tools N] [--out DIR]
  --demo     the quick start: the OpenAI Responses format only, unless --api says otherwise
  --api      wire format between gateway and provider (default: responses for --demo, all otherwise)
  --stream   SSE between gateway and provider (with --api all and no --stream: responses JSON, chat and anthropic SSE)
  --tools    fake plugin size (default 1000)
  --out      where the summary and session logs go (default packages/e2e/demo-output)`;

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      // `pnpm demo -- --help` passes a literal `--` through; no option takes it as a value, so drop it.
      args: process.argv.slice(2).filter((arg) => arg !== '--'),
      options: {
        demo: { type: 'boolean', default: false },
        api: { type: 'string' },
        stream: { type: 'boolean', default: false },
        tools: { type: 'string', default: '1000' },
        out: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const { values } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const api = values.api ?? (values.demo ? 'responses' : 'all');
  if (!['responses', 'chat', 'anthropic', 'all'].includes(api)) {
    console.error(`--api: expected responses, chat, anthropic or all, got ${api}\n${USAGE}`);
    return 2;
  }
  const toolCount = Number(values.tools);
  if (!Number.isInteger(toolCount) || toolCount < 1) {
    console.error(`--tools: expected a positive integer, got ${values.tools}\n${USAGE}`);
    return 2;
  }
  const outDir = values.out ?? join(PACKAGE_DIR, 'demo-output');
  const apis: readonly ProviderApi[] = api === 'all' ? ['responses', 'chat', 'anthropic'] : [api as ProviderApi];
  const results: ComparisonResult[] = [];
  for (const current of apis) {
    console.error(`Running the comparison over the ${current} API (${toolCount} fake plugin tools)...`);
    const result = await runComparison({
      outDir: join(outDir, current),
      api: current,
      // All formats without --stream: cover both transports, JSON for responses and SSE for chat and anthropic.
      stream: values.stream || (api === 'all' && current !== 'responses'),
      toolCount,
      // The demo adds the row for deferral on a chat endpoint (native mode, nativeSearch.chat: 'load').
      chatLoad: values.demo,
      onModeDone: (report) => console.error(`  ${report.variant === undefined ? report.mode : `${report.mode} (${report.variant})`} done in ${report.wallTimeMs} ms`),
    });
    results.push(result);
    console.log(formatComparisonReport(result));
    console.log(`\nJSON summary: ${result.summaryPath}\nSession logs: ${join(outDir, current, 'state')}/<mode>/sessions/*.jsonl\n`);
  }
  const failed = results.flatMap((result) => result.proofs.filter((proof) => !proof.ok));
  if (failed.length > 0) {
    console.error(`${failed.length} proof(s) failed.`);
    return 1;
  }
  console.log(`All ${results.reduce((sum, result) => sum + result.proofs.length, 0)} proofs passed.`);
  return 0;
}

runMain(main);

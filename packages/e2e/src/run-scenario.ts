// One gateway run for a scenario (a mode, a policy, hooks, a sandbox override), with everything a test
// asserts on: the response or the error, the provider requests and the session log.
import { join } from 'node:path';
import OpenAI from 'openai';
import type { Logger } from 'pino';
import type { ApprovalProvider, BeforeToolCallHook } from '@tool-search/policy';
import type { ProviderApi } from './resolve-script-reply.js';
import type { MockProvider, RecordedProviderRequest } from './start-mock-provider.js';
import { readSessionLog, type SessionLogSummary } from './read-session-log.js';
import { startGateway, type GatewayRunRecord } from './start-gateway.js';
import { writeGatewayConfig, type ComparisonMode } from './write-gateway-config.js';

/** Options for `runScenario`. */
export interface RunScenarioOptions {
  /** Folder for this scenario's config and state. */
  dir: string;
  provider: MockProvider;
  api: ProviderApi;
  stream?: boolean;
  mode: ComparisonMode;
  pluginPath: string;
  prompt: string;
  clientTools?: OpenAI.Responses.FunctionTool[];
  policy?: unknown;
  hooks?: readonly BeforeToolCallHook[];
  approvals?: ApprovalProvider;
  sandboxNodePath?: string;
  mcp?: { pidFile?: string } | false;
  logger?: Logger;
}

/** What a scenario run produced. */
export type ScenarioResult =
  | {
      ok: true;
      text: string;
      record: GatewayRunRecord;
      log: SessionLogSummary;
      requests: RecordedProviderRequest[];
    }
  | { ok: false; error: unknown; requests: RecordedProviderRequest[] };

/** Writes the config, starts a gateway, sends one request with the official client, and stops the gateway. */
export async function runScenario(options: RunScenarioOptions): Promise<ScenarioResult> {
  const configPath = await writeGatewayConfig({
    path: join(options.dir, 'gateway.json5'),
    provider: { baseURL: options.provider.baseURLFor(options.api), api: options.api, stream: options.stream ?? false },
    mode: options.mode,
    plugins: [options.pluginPath],
    stateDir: 'state',
    policy: options.policy,
    ...(options.sandboxNodePath ? { sandboxNodePath: options.sandboxNodePath } : {}),
    mcp: options.mcp,
  });
  const gateway = await startGateway({
    configPath,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.approvals ? { approvals: options.approvals } : {}),
  });
  options.provider.reset();
  try {
    const client = new OpenAI({ apiKey: 'no-key', baseURL: gateway.baseURL, maxRetries: 0, timeout: 120_000 });
    try {
      const response = await client.responses.create({
        model: 'mock-model',
        input: options.prompt,
        ...(options.clientTools ? { tools: options.clientTools } : {}),
      });
      const record = (response as unknown as { tool_search: GatewayRunRecord }).tool_search;
      return {
        ok: true,
        text: response.output_text,
        record,
        log: await readSessionLog(record.sessionLogPath),
        requests: options.provider.requests(),
      };
    } catch (error) {
      return { ok: false, error, requests: options.provider.requests() };
    }
  } finally {
    await gateway.close();
  }
}

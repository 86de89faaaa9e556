// A tool-search session for the terminal commands (search, list, doctor): the config's policy and context.
import type { ToolSearchHost, ToolSearchSession } from '@tool-search/gateway-adapter';
import type { LoadedConfig } from './load-config.js';

export function openCliSession(host: ToolSearchHost, config: LoadedConfig, toolSearch: unknown): Promise<ToolSearchSession> {
  return host.openSession({ config: toolSearch, policy: config.policy, context: config.context, visible: config.visible, sessionId: 'cli' });
}

/** The first line of a description, at most `max` characters. */
export function firstLine(text: string, max = 100): string {
  const line = text.split('\n').find((candidate) => candidate.trim() !== '')?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

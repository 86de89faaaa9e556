// A deterministic synthetic catalog: verbs x objects x services, with templated descriptions and schemas.
import type { ToolInput } from '../src/index.js';

const VERBS = ['get', 'list', 'create', 'update', 'delete', 'search', 'send', 'fetch', 'sync', 'export', 'import', 'archive', 'approve', 'schedule', 'convert', 'validate'];
const OBJECTS = [
  'issue', 'pull_request', 'file', 'folder', 'message', 'channel', 'invoice', 'customer', 'order', 'product', 'ticket', 'event',
  'calendar', 'contact', 'document', 'image', 'video', 'report', 'dashboard', 'metric', 'alert', 'deployment', 'build', 'branch',
  'commit', 'user', 'team', 'project', 'task', 'comment', 'payment', 'subscription', 'shipment', 'playlist', 'song', 'recipe',
  'flight', 'hotel', 'weather_forecast', 'stock_quote', 'exchange_rate', 'translation', 'transcript', 'note', 'bookmark', 'lead',
];
const SERVICES = ['github', 'gitlab', 'jira', 'slack', 'discord', 'stripe', 'shopify', 'notion', 'drive', 'dropbox', 'gmail', 'outlook', 'zoom', 'figma', 'linear', 'asana', 'trello', 'hubspot', 'salesforce', 'spotify'];
const ADJECTIVES = ['recent', 'archived', 'shared', 'private', 'public', 'pending', 'starred', 'draft', 'scheduled', 'flagged'];

/** A small deterministic PRNG (mulberry32) so every run builds the same catalog. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function syntheticTools(count: number, prefix: string): ToolInput[] {
  const random = prng(count + prefix.length);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const tools: ToolInput[] = [];
  for (let i = 0; i < count; i++) {
    const verb = pick(VERBS);
    const object = pick(OBJECTS);
    const service = pick(SERVICES);
    const adjective = pick(ADJECTIVES);
    const words = object.replace(/_/g, ' ');
    tools.push({
      name: `${verb}_${adjective}_${object}_${i}`,
      source: random() < 0.5 ? 'mcp' : 'plugin',
      owner: `${prefix}-${service}`,
      description: `${verb[0]?.toUpperCase()}${verb.slice(1)} ${adjective} ${words}s in ${service}. Returns the ${words} id, its title and when it was last changed.`,
      inputSchema: {
        type: 'object',
        properties: {
          [`${object}_id`]: { type: 'string', description: `The ${words} to ${verb}.` },
          limit: { type: 'integer', description: 'Most results to return.' },
          workspace: { type: 'string', description: `The ${service} workspace.` },
        },
        required: [`${object}_id`],
      },
    });
  }
  return tools;
}

import { describe, expect, it } from 'vitest';
import { assignNamespaces, MAX_NAMESPACE_DESCRIPTION_BYTES, type NamespaceMember } from './assign-namespaces.js';
import { utf8Length } from './text.js';

const members: NamespaceMember[] = [
  { id: 'plugin:crm:lookup', source: 'plugin', owner: 'crm', modelName: 'lookup' },
  { id: 'plugin:crm:create', source: 'plugin', owner: 'crm', modelName: 'create' },
  { id: 'mcp:crm:list', source: 'mcp', owner: 'crm', modelName: 'list' },
  { id: 'mcp:fs:read', source: 'mcp', owner: 'fs', modelName: 'read' },
];

describe('assignNamespaces', () => {
  it('names one namespace per source and owner, qualifying owners that two sources share', () => {
    const namespaces = assignNamespaces(members, new Set());
    expect(Object.fromEntries([...namespaces].map(([id, namespace]) => [id, namespace.name]))).toEqual({
      'plugin:crm:lookup': 'plugin_crm',
      'plugin:crm:create': 'plugin_crm',
      'mcp:crm:list': 'mcp_crm',
      'mcp:fs:read': 'fs',
    });
    expect(namespaces.get('plugin:crm:lookup')?.description).toBe('Plugin "crm", 2 tools: create, lookup.');
  });

  it('shares one namespace object among its members', () => {
    const namespaces = assignNamespaces(members, new Set());
    expect(namespaces.get('plugin:crm:lookup')).toBe(namespaces.get('plugin:crm:create'));
  });

  it('avoids taken names, then falls back to a hash', () => {
    expect(assignNamespaces([members[3] as NamespaceMember], new Set(['fs'])).get('mcp:fs:read')?.name).toBe('fs_tools');
    const name = assignNamespaces([members[3] as NamespaceMember], new Set(['fs', 'fs_tools'])).get('mcp:fs:read')?.name ?? '';
    expect(name).toMatch(/^fs_[0-9a-f]{8}$/);
  });

  it('does not depend on input order', () => {
    const forward = assignNamespaces(members, new Set());
    const backward = assignNamespaces([...members].reverse(), new Set());
    expect([...backward].sort()).toEqual([...forward].sort());
  });

  it('keeps a description within its byte budget even for one very long name', () => {
    const namespaces = assignNamespaces([{ id: 'plugin:p:x', source: 'plugin', owner: 'p', modelName: 'x'.repeat(64) }], new Set());
    expect(utf8Length(namespaces.get('plugin:p:x')?.description ?? '')).toBeLessThanOrEqual(MAX_NAMESPACE_DESCRIPTION_BYTES);
  });
});

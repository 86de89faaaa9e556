import { describe, expect, it } from 'vitest';
import { createCatalog } from './create-catalog.js';
import type { ToolDescriptor, ToolInput } from './types.js';

const TOOLS: ToolInput[] = [
  { name: 'create_issue', source: 'mcp', owner: 'github', description: 'Create a new issue in a GitHub repository.' },
  { name: 'create_issue', source: 'mcp', owner: 'gitlab', description: 'Open an issue in a GitLab project.' },
  { name: 'delete_file', source: 'openclaw', owner: 'core', description: 'Delete a file from the workspace.' },
  { name: 'read_file', source: 'openclaw', owner: 'core', description: 'Read the contents of a file.' },
  { name: 'secret_payroll_export', source: 'plugin', owner: 'hr', description: 'Export the confidential payroll ledger.' },
  { name: 'list_calendar_events', source: 'mcp', owner: 'calendar', description: 'List the events in a calendar between two dates.' },
];
const DENIED = new Set(['mcp:gitlab:create_issue', 'plugin:hr:secret_payroll_export', 'openclaw:core:delete_file']);
const allowed = (tool: ToolDescriptor) => !DENIED.has(tool.id);

describe('catalog.view', () => {
  it('sees only the admitted tools in every read', () => {
    const view = createCatalog(TOOLS).view(allowed);
    expect(view.size).toBe(3);
    expect(view.list().map((tool) => tool.id)).toEqual(['mcp:calendar:list_calendar_events', 'mcp:github:create_issue', 'openclaw:core:read_file']);
    expect(view.sources()).toEqual({ openclaw: 1, plugin: 0, mcp: 2, client: 0 });
    expect(view.get('plugin:hr:secret_payroll_export')).toBeUndefined();
    expect(view.search('payroll ledger export')).toEqual([]);
    expect(view.search('file').map((hit) => hit.id)).toEqual(['openclaw:core:read_file']);
    expect(view.searchMany([{ query: 'delete file' }, { query: 'issue' }]).flat().map((hit) => hit.id)).toEqual([
      'openclaw:core:read_file',
      'mcp:github:create_issue',
    ]);
  });

  it('resolves a name shared with a denied tool as unique, without counting the denied one', () => {
    const view = createCatalog(TOOLS).view(allowed);
    const described = view.describe('create_issue');
    expect(described.found && described.tool.id).toBe('mcp:github:create_issue');
    expect(view.named('create_issue')).toEqual(['mcp:github:create_issue']);
    expect(createCatalog(TOOLS).named('create_issue')).toEqual(['mcp:github:create_issue', 'mcp:gitlab:create_issue']);
    expect(view.search('create_issue').map((hit) => hit.id)).toEqual(['mcp:github:create_issue']);
  });

  it('answers a denied id exactly as an id that was never catalogued', () => {
    const view = createCatalog(TOOLS).view(allowed);
    const denied = view.describe('plugin:hr:secret_payroll_export');
    expect(denied).toEqual({ found: false, reason: 'unknown', message: 'No tool "plugin:hr:secret_payroll_export" in the catalog.', suggestions: [] });
    // Its exact name is no shortcut either, and a near miss never suggests it.
    expect(view.describe('secret_payroll_export').found).toBe(false);
    expect(view.describe('delete_fil')).toMatchObject({ found: false, suggestions: ['openclaw:core:read_file'] });
  });

  it('runs its filter once per tool, not per search', () => {
    let calls = 0;
    const view = createCatalog(TOOLS).view((tool) => {
      calls += 1;
      return allowed(tool);
    });
    expect(calls).toBe(0);
    for (let i = 0; i < 5; i += 1) view.search('file issue calendar');
    view.list();
    expect(calls).toBe(TOOLS.length);
  });

  it('catches up with tools added and removed after it was first used', () => {
    const catalog = createCatalog(TOOLS);
    const view = catalog.view((tool) => allowed(tool) && tool.name !== 'forbidden_tool');
    expect(view.size).toBe(3);
    catalog.add([
      { name: 'write_file', source: 'mcp', owner: 'fs', description: 'Write a file.' },
      { name: 'forbidden_tool', source: 'mcp', owner: 'fs', description: 'Write a file too.' },
    ]);
    catalog.remove(['openclaw:core:read_file']);
    expect(view.list().map((tool) => tool.id)).toEqual(['mcp:calendar:list_calendar_events', 'mcp:fs:write_file', 'mcp:github:create_issue']);
    expect(view.search('write file').map((hit) => hit.id)).toEqual(['mcp:fs:write_file']);
    // The removed id comes back with a different text: the view sees the new one.
    catalog.add([{ name: 'read_file', source: 'openclaw', owner: 'core', description: 'Reads bytes.' }]);
    const described = view.describe('openclaw:core:read_file');
    expect(described.found && described.tool.description).toBe('Reads bytes.');
  });

  it('re-reads the catalog once when it fell further behind than the change journal', () => {
    const catalog = createCatalog(TOOLS);
    const view = catalog.view(allowed);
    expect(view.size).toBe(3);
    for (let i = 0; i < 300; i += 1) catalog.add([{ name: `tool_${i}`, source: 'mcp', owner: 'many', description: `Tool number ${i}.` }]);
    catalog.remove(['mcp:many:tool_7']);
    expect(view.size).toBe(3 + 299);
    expect(view.get('mcp:many:tool_7')).toBeUndefined();
    expect(view.get('mcp:many:tool_299')?.id).toBe('mcp:many:tool_299');
  });

  it('keeps views of one catalog apart', () => {
    const catalog = createCatalog(TOOLS);
    const onlyCore = catalog.view((tool) => tool.owner === 'core');
    const onlyMcp = catalog.view((tool) => tool.source === 'mcp');
    expect(onlyCore.search('file').map((hit) => hit.id)).toEqual(['openclaw:core:delete_file', 'openclaw:core:read_file']);
    expect(onlyMcp.search('file')).toEqual([]);
    expect(onlyMcp.describe('create_issue')).toMatchObject({ found: false, reason: 'ambiguous', suggestions: ['mcp:github:create_issue', 'mcp:gitlab:create_issue'] });
  });

  it('ranks exactly as a catalog built from the admitted tools alone, over the one shared index', () => {
    const view = createCatalog(TOOLS).view(allowed);
    const alone = createCatalog(TOOLS.filter((tool) => !DENIED.has(`${tool.source}:${tool.owner}:${tool.name}`)));
    for (const query of ['read the contents of a file', 'create issue', 'calendar', 'fil', 'export payroll file']) {
      expect(view.search(query)).toEqual(alone.search(query));
    }
  });

  it('scores admitted tools the same whether or not the query also names words only denied tools have', () => {
    const catalog = createCatalog([
      { name: 'alpha_one', source: 'mcp', owner: 'a', description: 'Alpha report one.' },
      { name: 'alpha_two', source: 'mcp', owner: 'a', description: 'Alpha report two, longer text here.' },
      { name: 'alpha_three', source: 'mcp', owner: 'a', description: 'Alpha report three.' },
      { name: 'zyxwvut_tool', source: 'mcp', owner: 'hidden', description: 'Zyxwvut only.' },
    ]);
    const view = catalog.view((tool) => tool.owner !== 'hidden');
    // A matched word no admitted tool has must not switch on the diversification of the admitted hits.
    expect(view.search('alpha zyxwvut')).toEqual(view.search('alpha'));
  });

  it('rejects a filter that is not a function', () => {
    expect(() => createCatalog(TOOLS).view('all' as never)).toThrow(/expected a function/);
  });
});

describe('catalog.view limits', () => {
  it('has search limits of its own, clamped like the catalog', () => {
    const catalog = createCatalog(TOOLS, { maxSearchLimit: 50 });
    const view = catalog.view(allowed, { searchDefaultLimit: 1, maxSearchLimit: 2 });
    expect(view.limits).toEqual({ searchDefaultLimit: 1, maxSearchLimit: 2 });
    expect(view.search('file issue calendar')).toHaveLength(1);
    expect(view.search('file issue calendar', { limit: 10 })).toHaveLength(2);
    expect(catalog.view(allowed).limits).toEqual({ searchDefaultLimit: 8, maxSearchLimit: 50 });
    expect(catalog.view(allowed, { maxSearchLimit: 500 }).limits).toEqual({ searchDefaultLimit: 8, maxSearchLimit: 50 });
    expect(() => catalog.view(allowed, { maxSearchLimit: 0 })).toThrow(/maxSearchLimit/);
  });
});

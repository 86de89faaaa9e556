import { describe, expect, it } from 'vitest';
import { isToolSource, parseToolId, TOOL_SOURCES, toolId } from './tool-id.js';

describe('toolId', () => {
  it('joins source, owner and name with colons', () => {
    expect(toolId('mcp', 'github', 'create_issue')).toBe('mcp:github:create_issue');
  });
});

describe('parseToolId', () => {
  it('splits an id into its parts', () => {
    expect(parseToolId('plugin:@acme/tools:run')).toEqual({ source: 'plugin', owner: '@acme/tools', name: 'run' });
  });

  it('returns undefined for an unknown source or a missing part', () => {
    expect(parseToolId('web:x:y')).toBeUndefined();
    expect(parseToolId('mcp:x')).toBeUndefined();
    expect(parseToolId('mcp:x:')).toBeUndefined();
  });
});

describe('isToolSource', () => {
  it('is true for each of TOOL_SOURCES and false for anything else', () => {
    expect(TOOL_SOURCES.filter((source) => isToolSource(source))).toEqual(['openclaw', 'plugin', 'mcp', 'client']);
    expect(isToolSource('web')).toBe(false);
    expect(isToolSource('MCP')).toBe(false);
    expect(isToolSource(undefined)).toBe(false);
  });
});

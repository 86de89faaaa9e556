import { describe, expect, it } from 'vitest';
import { parseToolId, toolId } from './tool-id.js';

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

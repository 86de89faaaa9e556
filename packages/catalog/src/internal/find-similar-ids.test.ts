import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../types.js';
import { findSimilarIds } from './find-similar-ids.js';

function tool(id: string): ToolDescriptor {
  const [source, owner, name] = id.split(':') as [ToolDescriptor['source'], string, string];
  return { id, name, source, owner, description: '', inputSchema: {}, trusted: true, tags: [] };
}

describe('findSimilarIds', () => {
  const tools = ['mcp:github:create_issue', 'mcp:github:close_issue', 'mcp:gitlab:create_issue', 'openclaw:core:read_file'].map(tool);

  it('suggests tools whose name is a small typo away, nearest first then by id', () => {
    expect(findSimilarIds('create_isue', tools, 3)).toEqual(['mcp:github:create_issue', 'mcp:gitlab:create_issue']);
  });

  it('compares the name part when given a mistyped id', () => {
    expect(findSimilarIds('mcp:github:creat_issue', tools, 3)).toEqual(['mcp:github:create_issue', 'mcp:gitlab:create_issue']);
  });

  it('returns at most max ids', () => {
    expect(findSimilarIds('create_issue', tools, 1)).toEqual(['mcp:github:create_issue']);
  });

  it('returns nothing when no name is close', () => {
    expect(findSimilarIds('send_email', tools, 3)).toEqual([]);
  });
});

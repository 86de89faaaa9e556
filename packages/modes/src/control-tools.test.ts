import { describe, expect, it } from 'vitest';
import { buildSearchTools, CONTROL_TOOL_NAMES, isControlToolName, TOOL_CALL, TOOL_DESCRIBE, TOOL_SEARCH, TOOL_SEARCH_CODE } from './control-tools.js';
import { renderServerSearchAnswer } from './render-search-answer.js';
import type { SurfaceLimits } from './types.js';

describe('CONTROL_TOOL_NAMES', () => {
  it('lists the four control tools, code first', () => {
    expect(CONTROL_TOOL_NAMES).toEqual(['tool_search_code', 'tool_search', 'tool_describe', 'tool_call']);
    expect([TOOL_SEARCH_CODE, TOOL_SEARCH, TOOL_DESCRIBE, TOOL_CALL]).toEqual(CONTROL_TOOL_NAMES);
  });

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(CONTROL_TOOL_NAMES)).toBe(true);
  });
});

describe('isControlToolName', () => {
  it('is true for each control tool name', () => {
    expect(CONTROL_TOOL_NAMES.filter((name) => isControlToolName(name))).toEqual([...CONTROL_TOOL_NAMES]);
  });

  it('is false for other names, near misses and the provider-defined search tools', () => {
    expect(isControlToolName('tool_searches')).toBe(false);
    expect(isControlToolName('TOOL_SEARCH')).toBe(false);
    expect(isControlToolName('tool_search_tool_bm25')).toBe(false);
    expect(isControlToolName('')).toBe(false);
  });
});

describe('buildSearchTools', () => {
  const limits: SurfaceLimits = { searchDefaultLimit: 8, maxSearchLimit: 20, codeTimeoutMs: 10_000 };
  const description = (): string => buildSearchTools(limits, { directory: false }).find((tool) => tool.name === TOOL_SEARCH)?.description ?? '';

  it("names the { server, query } form and every field of its answer, matched said in words", () => {
    expect(description()).toContain('({ server, query })');
    // The answer's own fields (renderServerSearchAnswer), as the description lists them.
    const answer = renderServerSearchAnswer({ server: 'mcp:github', matched: 12, toolCount: 40, hits: [] });
    const fields = Object.keys(answer).filter((key) => key !== 'server');
    expect(description()).toContain(`{ ${fields.join(', ')} }`);
    expect(description()).toMatch(/matched = how many of its tools match/);
  });

  it('still names the other forms: one server listed and paged, the servers listed and paged', () => {
    expect(description()).toContain('({ server }) lists its tools (offset pages them)');
    expect(description()).toContain('({}) lists the servers (servers_offset pages them');
  });
});

import { describe, expect, it } from 'vitest';
import { CONTROL_TOOL_NAMES, isControlToolName, TOOL_CALL, TOOL_DESCRIBE, TOOL_SEARCH, TOOL_SEARCH_CODE } from './control-tools.js';

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

import { describe, expect, it } from 'vitest';
import { deprecatedReplacement } from './deprecated-replacement.js';

describe('deprecatedReplacement', () => {
  it('reads the replacement a deprecated tool names', () => {
    expect(deprecatedReplacement('Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.', 'read_file')).toBe('read_text_file');
    expect(deprecatedReplacement('This tool is deprecated in favour of `search_v2`.', 'search')).toBe('search_v2');
    expect(deprecatedReplacement('Deprecated. Replaced by list-items.', 'list')).toBe('list-items');
  });

  it('finds none for a tool that is not itself deprecated, or names no other tool', () => {
    expect(deprecatedReplacement('List the deprecated APIs of a package; use filter instead of scanning.', 'list_deprecated')).toBeUndefined();
    expect(deprecatedReplacement('Read a file.', 'read_file')).toBeUndefined();
    expect(deprecatedReplacement('DEPRECATED: will be removed soon.', 'old_tool')).toBeUndefined();
  });
});

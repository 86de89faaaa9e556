import { describe, expect, it } from 'vitest';
import { createCatalog } from './create-catalog.js';
import type { ToolInput } from './types.js';

const fs = (name: string, description: string): ToolInput => ({ source: 'mcp', owner: 'filesystem', name, description });
const TOOLS: ToolInput[] = [
  fs('read_file', 'Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.'),
  fs('read_text_file', 'Read the complete contents of a file from the file system as text. Handles various text encodings and provides detailed error messages if the file cannot be read. Use the head parameter to read only the first lines.'),
  fs('read_media_file', 'Read an image or audio file.'),
  fs('write_file', 'Create a new file or overwrite an existing file.'),
  { source: 'mcp', owner: 'other', name: 'read_text_file', description: 'Read a text file on another machine.' },
];

describe('a tool that declares itself deprecated', () => {
  it('ranks just below the replacement it names', () => {
    const catalog = createCatalog(TOOLS);
    const ids = catalog.search('read file', { limit: 5 }).map((hit) => hit.id);
    expect(ids.indexOf('mcp:filesystem:read_text_file')).toBe(ids.indexOf('mcp:filesystem:read_file') - 1);
    expect(ids.indexOf('mcp:filesystem:read_text_file')).toBe(0);
  });

  it('keeps its place when a view refuses its replacement, as a catalog of the admitted tools alone', () => {
    const catalog = createCatalog(TOOLS);
    const view = catalog.view((tool) => tool.id !== 'mcp:filesystem:read_text_file');
    const alone = createCatalog(TOOLS.filter((tool) => !(tool.owner === 'filesystem' && tool.name === 'read_text_file')));
    expect(view.search('read file', { limit: 5 })).toEqual(alone.search('read file', { limit: 5 }));
    expect(view.search('read file', { limit: 5 })[0]?.id).toBe('mcp:filesystem:read_file');
  });

  it('explains the replacement as placed above it', () => {
    const catalog = createCatalog(TOOLS);
    const explained = catalog.explain('read file');
    expect(explained.hits[0]).toMatchObject({ id: 'mcp:filesystem:read_text_file', replaces: 'mcp:filesystem:read_file' });
  });
});

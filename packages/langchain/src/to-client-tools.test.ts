import { tool } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toClientTools } from './to-client-tools.js';

describe('toClientTools', () => {
  it('declares a zod-schema tool with its name, description and JSON Schema', () => {
    const showToast = tool(() => 'ok', { name: 'show_toast', description: 'Show a toast.', schema: z.object({ text: z.string(), seconds: z.number().optional() }) });
    expect(toClientTools([showToast])).toEqual([
      {
        name: 'show_toast',
        description: 'Show a toast.',
        inputSchema: expect.objectContaining({ type: 'object', properties: { text: { type: 'string' }, seconds: { type: 'number' } }, required: ['text'] }),
      },
    ]);
  });

  it('keeps a JSON Schema as it is and sets the owner when asked', () => {
    const schema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    expect(toClientTools([{ name: 'open_file', description: 'Open a file.', schema }], { owner: 'ide' })).toEqual([
      { name: 'open_file', description: 'Open a file.', inputSchema: schema, owner: 'ide' },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { contentPartsText } from './content-parts-text.js';

describe('contentPartsText', () => {
  it('keeps text, notes binary parts and links, and never copies base64 into the text', () => {
    const data = Buffer.alloc(3_000, 7).toString('base64');
    const text = contentPartsText(
      [
        { type: 'text', text: 'Here is the chart.' },
        { type: 'image', mimeType: 'image/png', data },
        { type: 'resource_link', uri: 'file:///tmp/a.csv', name: 'a.csv', mimeType: 'text/csv' },
        { type: 'resource', uri: 'memo://1', text: 'remember this' },
        { type: 'resource', uri: 'blob://2', mimeType: 'application/pdf', blob: 'AAAA' },
      ],
      undefined,
    );
    expect(text).toBe(
      'Here is the chart.\n[image image/png, 3000 bytes, attached]\n[resource link: file:///tmp/a.csv (a.csv), text/csv]\n[resource memo://1]\nremember this\n[resource blob://2, application/pdf, 3 bytes, attached]',
    );
    expect(text).not.toContain(data.slice(0, 40));
  });

  it('uses the structured content as text only when no part carries text', () => {
    expect(contentPartsText([], { sum: 9 })).toBe('{"sum":9}');
    expect(contentPartsText([{ type: 'text', text: '9' }], { sum: 9 })).toBe('9');
  });
});

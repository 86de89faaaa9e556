import { describe, expect, it } from 'vitest';
import { createLineSplitter } from './create-line-splitter.js';

function recordingSplitter(maxLineBytes: number) {
  const lines: string[] = [];
  const overflows: number[] = [];
  const splitter = createLineSplitter({
    maxLineBytes,
    onLine: (line) => lines.push(line),
    onOverflow: (bytes) => overflows.push(bytes),
  });
  return { splitter, lines, overflows };
}

describe('createLineSplitter', () => {
  it('emits every complete line of a chunk', () => {
    const { splitter, lines } = recordingSplitter(100);
    splitter.push(Buffer.from('a\nbb\nccc\n'));
    expect(lines).toEqual(['a', 'bb', 'ccc']);
    expect(splitter.pendingBytes).toBe(0);
  });

  it('joins a line split across chunks, including a multi-byte character cut in half', () => {
    const { splitter, lines } = recordingSplitter(100);
    const bytes = Buffer.from('héllo\n');
    splitter.push(bytes.subarray(0, 2));
    splitter.push(bytes.subarray(2, 4));
    expect(lines).toEqual([]);
    expect(splitter.pendingBytes).toBe(4);
    splitter.push(bytes.subarray(4));
    expect(lines).toEqual(['héllo']);
  });

  it('accepts a line of exactly maxLineBytes', () => {
    const { splitter, lines, overflows } = recordingSplitter(4);
    splitter.push(Buffer.from('abcd\n'));
    expect(lines).toEqual(['abcd']);
    expect(overflows).toEqual([]);
  });

  it('reports overflow once a partial line passes the cap, without waiting for a newline', () => {
    const { splitter, lines, overflows } = recordingSplitter(4);
    splitter.push(Buffer.from('abc'));
    splitter.push(Buffer.from('de'));
    expect(overflows).toEqual([5]);
    expect(lines).toEqual([]);
  });

  it('ignores everything after an overflow', () => {
    const { splitter, lines, overflows } = recordingSplitter(4);
    splitter.push(Buffer.from('abcdef\nok\n'));
    splitter.push(Buffer.from('more\n'));
    expect(overflows).toEqual([6]);
    expect(lines).toEqual([]);
  });
});

describe('createLineSplitter source text', () => {
  it('runs the same when rebuilt from String(createLineSplitter), as the child-process host worker does', () => {
    const rebuilt = new Function(`return (${String(createLineSplitter)})`)() as typeof createLineSplitter;
    const lines: string[] = [];
    const overflows: number[] = [];
    const splitter = rebuilt({ maxLineBytes: 8, onLine: (line) => lines.push(line), onOverflow: (bytes) => overflows.push(bytes) });
    splitter.push(Buffer.from('ab\ncd'));
    splitter.push(Buffer.from('é\n'));
    splitter.push(Buffer.from('123456789'));
    expect({ lines, overflows }).toEqual({ lines: ['ab', 'cdé'], overflows: [9] });
  });
});

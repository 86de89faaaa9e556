import { describe, expect, it } from 'vitest';
import { createStderrTail } from './create-stderr-tail.js';

describe('createStderrTail', () => {
  const identity = (text: string) => text;

  it('keeps the last lines across chunk boundaries, including an unfinished one', () => {
    const tail = createStderrTail({ maxLines: 3, maxBytes: 1_000, redact: identity });
    tail.push('one\ntw');
    tail.push('o\r\nthree\n\nfou');
    expect(tail.lines()).toEqual(['two', 'three', 'fou']);
  });

  it('bounds the bytes kept, keeping the end of a line that is too long on its own', () => {
    const tail = createStderrTail({ maxLines: 20, maxBytes: 10, redact: identity });
    tail.push(`${'x'.repeat(50)}END\n`);
    expect(tail.lines()).toEqual([`…${'x'.repeat(6)}END`]);
    tail.push('a\nb\n');
    expect(tail.lines().join('').length).toBeLessThanOrEqual(10);
    expect(tail.lines().at(-1)).toBe('b');
  });

  it('redacts each line as it is completed', () => {
    const tail = createStderrTail({ maxLines: 5, maxBytes: 1_000, redact: (text) => text.replace('secret', '[redacted]') });
    tail.push('my secret\nanother sec');
    tail.push('ret here');
    expect(tail.lines()).toEqual(['my [redacted]', 'another [redacted] here']);
  });
});

import { describe, expect, it } from 'vitest';
import { lowerAutogroupPriority, type AutogroupFiles } from './lower-thread-priority.js';

/** A fake /proc: the host's autogroup file, and what was written where (or the error a write raises). */
function fakeProc(own: string | Error, writeError?: NodeJS.ErrnoException): AutogroupFiles & { written: Array<[string, string]> } {
  const written: Array<[string, string]> = [];
  return {
    written,
    readFileSync(path) {
      if (path !== '/proc/self/autogroup') throw new Error(`unexpected read of ${path}`);
      if (own instanceof Error) throw own;
      return own;
    },
    writeFileSync(path, data) {
      if (writeError !== undefined) throw writeError;
      written.push([path, data]);
    },
  };
}

const errno = (code: string) => Object.assign(new Error(code), { code });

describe('lowerAutogroupPriority', () => {
  it("writes the host's autogroup nice plus the increment to the child's autogroup, at most 19", () => {
    const host = fakeProc('/autogroup-123 nice 0\n');
    // The host's group is the base, not the calling thread's nice value.
    expect(lowerAutogroupPriority(host, 4711, 10, 7)).toBe(10);
    expect(host.written).toEqual([['/proc/4711/autogroup', '10']]);
    const lowered = fakeProc('/autogroup-9 nice 14\n');
    expect(lowerAutogroupPriority(lowered, 5, 10, 0)).toBe(19);
    expect(lowered.written).toEqual([['/proc/5/autogroup', '19']]);
    const raised = fakeProc('/autogroup-9 nice -5\n');
    expect(lowerAutogroupPriority(raised, 5, 10, 0)).toBe(5);
  });

  it("starts from the caller's own nice value where the host is in the root group (an empty autogroup file)", () => {
    const root = fakeProc('');
    expect(lowerAutogroupPriority(root, 4711, 10, 0)).toBe(10);
    const lowered = fakeProc('\n');
    expect(lowerAutogroupPriority(lowered, 4712, 10, 12)).toBe(19);
    const raised = fakeProc('');
    expect(lowerAutogroupPriority(raised, 4713, 10, -15)).toBe(-5);
    expect([...root.written, ...lowered.written, ...raised.written]).toEqual([
      ['/proc/4711/autogroup', '10'],
      ['/proc/4712/autogroup', '19'],
      ['/proc/4713/autogroup', '-5'],
    ]);
  });

  it('changes nothing where there is no autogroup file, or one it cannot read', () => {
    const absent = fakeProc(errno('ENOENT'));
    expect(lowerAutogroupPriority(absent, 5, 10, 0)).toBe('unsupported');
    const garbled = fakeProc('something else\n');
    expect(lowerAutogroupPriority(garbled, 5, 10, 0)).toBe('unsupported');
    expect([...absent.written, ...garbled.written]).toEqual([]);
  });

  it("tells a busy kernel (EAGAIN: try later) from a refusal (the child gone, or the write denied)", () => {
    expect(lowerAutogroupPriority(fakeProc('/autogroup-1 nice 0', errno('EAGAIN')), 5, 10, 0)).toBe('busy');
    expect(lowerAutogroupPriority(fakeProc('/autogroup-1 nice 0', errno('ENOENT')), 5, 10, 0)).toBe('refused');
    expect(lowerAutogroupPriority(fakeProc('/autogroup-1 nice 0', errno('EPERM')), 5, 10, 0)).toBe('refused');
  });

  it('works from its source text alone, as the child-process host embeds it', () => {
    const rebuilt = new Function(`return (${String(lowerAutogroupPriority)})`)() as typeof lowerAutogroupPriority;
    const host = fakeProc('/autogroup-77 nice 3\n');
    expect(rebuilt(host, 42, 10, 0)).toBe(13);
    expect(host.written).toEqual([['/proc/42/autogroup', '13']]);
    expect(rebuilt(fakeProc('/autogroup-1 nice 0', errno('EAGAIN')), 5, 10, 0)).toBe('busy');
    expect(rebuilt(fakeProc(''), 5, 10, 4)).toBe(14);
  });
});

import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createRootLogger } from './create-root-logger.js';

function capture(): { stream: Writable & { write: Writable['write'] }; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return { stream, lines: () => chunks.join('').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('createRootLogger', () => {
  it('redacts secrets, environments and tool arguments', () => {
    const { stream, lines } = capture();
    const logger = createRootLogger({ destination: stream });
    logger.info({ apiKey: 'sk-1', server: { env: { TOKEN: 'x' }, token: 't' }, args: { body: 'private' }, toolId: 'a' }, 'm');
    expect(lines()[0]).toMatchObject({ apiKey: '[redacted]', server: { env: '[redacted]', token: '[redacted]' }, args: '[redacted]', toolId: 'a', pkg: 'tool-search' });
  });

  it('redacts extra paths and honours the level', () => {
    const { stream, lines } = capture();
    const logger = createRootLogger({ destination: stream, level: 'warn', redact: ['user.email'] });
    logger.info({ a: 1 }, 'dropped');
    logger.warn({ user: { email: 'a@b.c', id: 1 } }, 'kept');
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toMatchObject({ user: { email: '[redacted]', id: 1 }, msg: 'kept' });
  });

  it('writes each key once when children bind their own pkg and component over their parents\' (the innermost wins)', () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk.toString());
        callback();
      },
    });
    const logger = createRootLogger({ destination: stream });
    logger.child({ pkg: 'gateway-adapter', component: 'host' }).child({ pkg: 'catalog' }).child({ component: 'index' }).info({ toolId: 'a' }, 'm');
    const line = chunks.join('');
    expect(line.match(/"pkg":/g)).toHaveLength(1);
    expect(line.match(/"component":/g)).toHaveLength(1);
    expect(JSON.parse(line)).toMatchObject({ pkg: 'catalog', component: 'index', toolId: 'a', msg: 'm' });
    expect(line.endsWith('}\n')).toBe(true);
  });
});

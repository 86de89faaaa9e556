import { describe, expect, it } from 'vitest';
import { toolCallArgsSchema, toolDescribeArgsSchema, toolSearchArgsSchema, toolSearchCodeArgsSchema } from './schemas.js';

describe('toolSearchCodeArgsSchema', () => {
  it('accepts a code body', () => {
    expect(toolSearchCodeArgsSchema.parse({ code: 'return 1;' })).toEqual({ code: 'return 1;' });
  });

  it('rejects a missing or empty body', () => {
    expect(toolSearchCodeArgsSchema.safeParse({}).success).toBe(false);
    expect(toolSearchCodeArgsSchema.safeParse({ code: '' }).success).toBe(false);
  });
});

describe('toolSearchArgsSchema', () => {
  it('accepts a query with an optional limit', () => {
    expect(toolSearchArgsSchema.parse({ query: 'create issue', limit: 5 })).toEqual({ query: 'create issue', limit: 5 });
  });

  it('accepts up to 16 queries, as strings or { query, limit }', () => {
    const queries = Array.from({ length: 16 }, (_, index) => (index % 2 === 0 ? `q${index}` : { query: `q${index}`, limit: 2 }));
    expect(toolSearchArgsSchema.parse({ queries }).queries).toHaveLength(16);
  });

  it('rejects 17 queries', () => {
    expect(toolSearchArgsSchema.safeParse({ queries: Array.from({ length: 17 }, (_, index) => `q${index}`) }).success).toBe(false);
  });

  it('rejects both query and queries, and a server with queries', () => {
    expect(toolSearchArgsSchema.safeParse({ query: 'a', queries: ['b'] }).success).toBe(false);
    const both = toolSearchArgsSchema.safeParse({ queries: ['a'], server: 'b' });
    expect(both.success).toBe(false);
    expect(both.error?.issues[0]?.message).toBe('server searches one query: use { server, query }');
  });

  it('takes a server with a query: a search within that server', () => {
    expect(toolSearchArgsSchema.parse({ query: 'add a fact', server: 'memory', limit: 3 })).toEqual({ query: 'add a fact', server: 'memory', limit: 3 });
  });

  it('takes a server to browse with an offset, and no search at all (the server list)', () => {
    expect(toolSearchArgsSchema.parse({ server: 'memory', offset: 20, limit: 10 })).toEqual({ server: 'memory', offset: 20, limit: 10 });
    expect(toolSearchArgsSchema.parse({ limit: 3 })).toEqual({ limit: 3 });
    expect(toolSearchArgsSchema.safeParse({ server: 'memory', offset: -1 }).success).toBe(false);
  });

  it('rejects an empty query and a non-integer or zero limit', () => {
    expect(toolSearchArgsSchema.safeParse({ query: '  ' }).success).toBe(false);
    expect(toolSearchArgsSchema.safeParse({ query: 'a', limit: 2.5 }).success).toBe(false);
    expect(toolSearchArgsSchema.safeParse({ query: 'a', limit: 0 }).success).toBe(false);
  });

  it('leaves a limit above the maximum for the catalog to clamp', () => {
    expect(toolSearchArgsSchema.parse({ query: 'a', limit: 500 }).limit).toBe(500);
  });
});

describe('toolDescribeArgsSchema', () => {
  it('accepts an id and trims it', () => {
    expect(toolDescribeArgsSchema.parse({ id: ' plugin:github:create_issue ' })).toEqual({ id: 'plugin:github:create_issue' });
  });

  it('rejects an empty id', () => {
    expect(toolDescribeArgsSchema.safeParse({ id: '' }).success).toBe(false);
  });
});

describe('toolCallArgsSchema', () => {
  it('accepts an id with args', () => {
    expect(toolCallArgsSchema.parse({ id: 'plugin:github:create_issue', args: { title: 'Bug' } })).toEqual({
      id: 'plugin:github:create_issue',
      args: { title: 'Bug' },
    });
  });

  it('defaults missing args to an empty object', () => {
    expect(toolCallArgsSchema.parse({ id: 'openclaw:core:status' })).toEqual({ id: 'openclaw:core:status', args: {} });
  });

  it('rejects flattened arguments so the adapter can repair them', () => {
    const result = toolCallArgsSchema.safeParse({ id: 'plugin:github:create_issue', title: 'Bug' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.code).toBe('unrecognized_keys');
  });

  it('rejects args that are not an object', () => {
    expect(toolCallArgsSchema.safeParse({ id: 'x', args: '{"title":"Bug"}' }).success).toBe(false);
    expect(toolCallArgsSchema.safeParse({ id: 'x', args: [1] }).success).toBe(false);
  });
});

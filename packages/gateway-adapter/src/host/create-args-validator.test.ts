import { describe, expect, it } from 'vitest';
import { renderArgsProblem, renderErrorText } from '@tool-search/modes';
import { createArgsValidator } from './create-args-validator.js';

const schema = {
  type: 'object',
  properties: {
    owner: { type: 'string' },
    repo: { type: 'string' },
    title: { type: 'string', minLength: 1 },
    labels: { type: 'array', items: { type: 'string' } },
    state: { enum: ['open', 'closed'] },
    email: { type: 'string', format: 'email' },
  },
  required: ['owner', 'repo', 'title'],
  additionalProperties: false,
};
const signature = '{ owner: string; repo: string; title: string; labels?: string[] }';

describe('createArgsValidator', () => {
  it('accepts valid arguments', () => {
    expect(createArgsValidator().validate({ toolId: 't', schema, args: { owner: 'o', repo: 'r', title: 'x' } })).toEqual({ ok: true });
  });

  it('says which required parameter is missing; modes words it with the signature', () => {
    const result = createArgsValidator().validate({ toolId: 'mcp:gh:create_issue', schema, args: { owner: 'o', repo: 'r' } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map(renderArgsProblem)).toEqual(['missing required parameter "title"']);
    expect(renderErrorText({ kind: 'tool_arguments_refused', id: 'mcp:gh:create_issue', problems: result.problems, suggestions: result.suggestions, signature })).toBe(`Invalid arguments for mcp:gh:create_issue: missing required parameter "title". Expected: ${signature}`);
  });

  it('suggests the near parameter name for a misspelt one', () => {
    const result = createArgsValidator().validate({ toolId: 't', schema, args: { owner: 'o', repo: 'r', titel: 'x' } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map(renderArgsProblem)).toEqual(['missing required parameter "title"', 'unknown parameter "titel"']);
    expect(result.suggestions).toEqual({ titel: ['title'] });
    expect(renderErrorText({ kind: 'tool_arguments_refused', id: 't', problems: result.problems, suggestions: result.suggestions })).toBe(
      'Invalid arguments for t: missing required parameter "title"; unknown parameter "titel". "titel": did you mean "title"?',
    );
  });

  it('reports wrong types with the path', () => {
    const result = createArgsValidator().validate({ toolId: 't', schema, args: { owner: 'o', repo: 'r', title: 'x', labels: [1] } });
    expect(!result.ok && result.problems.map(renderArgsProblem)).toEqual(['args.labels.0 must be string']);
  });

  it('lists allowed values for an enum', () => {
    const result = createArgsValidator().validate({ toolId: 't', schema, args: { owner: 'o', repo: 'r', title: 'x', state: 'shut' } });
    expect(!result.ok && result.problems.map(renderArgsProblem)).toEqual(['args.state must be one of "open", "closed"']);
  });

  it('checks formats', () => {
    const result = createArgsValidator().validate({ toolId: 't', schema, args: { owner: 'o', repo: 'r', title: 'x', email: 'nope' } });
    expect(!result.ok && result.problems.map(renderArgsProblem)).toEqual(['args.email must match format "email"']);
  });

  it('accepts schemas that declare a draft 2020-12 $schema', () => {
    const validator = createArgsValidator();
    const drafted = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };
    expect(validator.validate({ toolId: 'd', schema: drafted, args: { a: 1 } })).toEqual({ ok: true });
    expect(validator.validate({ toolId: 'd', schema: drafted, args: {} }).ok).toBe(false);
  });

  it('recompiles when a tool id comes back with a different schema', () => {
    const validator = createArgsValidator();
    const first = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    const second = { type: 'object', properties: { b: { type: 'string' } }, required: ['b'] };
    expect(validator.validate({ toolId: 'x', schema: first, args: { a: 's' } }).ok).toBe(true);
    expect(validator.validate({ toolId: 'x', schema: second, args: { a: 's' } }).ok).toBe(false);
  });
});

describe('createArgsValidator with hostile schemas', () => {
  const deepSchema = (levels: number) => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < levels; level += 1) schema = { type: 'object', properties: { x: schema } };
    return schema;
  };

  it('runs a catastrophic pattern in linear time (RE2) and still reports the mismatch', () => {
    const schema = { type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' } } };
    const result = createArgsValidator().validate({ toolId: 'mcp:evil:redos', schema, args: { name: `${'a'.repeat(50_000)}b` } });
    expect(!result.ok && result.problems.map(renderArgsProblem)).toEqual(['args.name must match pattern "^(a+)+$"']);
    expect(createArgsValidator().validate({ toolId: 'r', schema, args: { name: 'aaaa' } })).toEqual({ ok: true });
  });

  it('does not compile a 10,000-deep schema, and says why', () => {
    const result = createArgsValidator().validate({ toolId: 'mcp:evil:deep', schema: deepSchema(10_000), args: { x: 1 } });
    expect(result).toEqual({ ok: true, unchecked: 'schema nesting exceeds 64 levels' });
  });

  it('does not compile a schema with more values than the limit', () => {
    const properties: Record<string, unknown> = {};
    for (let index = 0; index < 1_000; index += 1) properties[`p${index}`] = { type: 'string', minLength: 1 };
    expect(createArgsValidator().validate({ toolId: 'mcp:evil:wide', schema: { type: 'object', properties }, args: {} })).toEqual({
      ok: true,
      unchecked: 'schema has more than 2500 values',
    });
  });

  it('does not compile a 5 MB schema, and says why', () => {
    const properties: Record<string, unknown> = {};
    for (let index = 0; index < 100; index += 1) properties[`p${index}`] = { type: 'string', description: 'd'.repeat(52_000) };
    const schema = { type: 'object', properties };
    expect(JSON.stringify(schema).length).toBeGreaterThan(5_000_000);
    const result = createArgsValidator().validate({ toolId: 'mcp:evil:big', schema, args: {} });
    expect(result).toEqual({ ok: true, unchecked: 'schema exceeds 131072 bytes' });
  });

  it('does not compile definitions that expand exponentially through $ref (fast to compile, 2^n to validate)', () => {
    const definitions: Record<string, unknown> = { a0: { type: 'string', minLength: 1 } };
    for (let index = 1; index < 40; index += 1) {
      definitions[`a${index}`] = { allOf: [{ $ref: `#/definitions/a${index - 1}` }, { $ref: `#/definitions/a${index - 1}` }] };
    }
    const schema = { type: 'object', definitions, properties: { v: { $ref: '#/definitions/a39' } } };
    expect(createArgsValidator().validate({ toolId: 'mcp:evil:refs', schema, args: { v: 'x' } })).toEqual({
      ok: true,
      unchecked: 'schema expands to more than 25000 subschemas through its $refs',
    });
  });

  it('validates a recursive schema (a cycle through $ref counts once)', () => {
    const schema = {
      type: 'object',
      properties: { tree: { $ref: '#/definitions/node' } },
      definitions: { node: { type: 'object', properties: { value: { type: 'number' }, children: { type: 'array', items: { $ref: '#/definitions/node' } } } } },
    };
    const validator = createArgsValidator();
    expect(validator.validate({ toolId: 't', schema, args: { tree: { value: 1, children: [{ value: 2, children: [] }] } } })).toEqual({ ok: true });
    expect(validator.validate({ toolId: 't', schema, args: { tree: { value: 1, children: [{ value: 'two' }] } } }).ok).toBe(false);
  });

  it('never follows a remote $ref', () => {
    const schema = { type: 'object', properties: { a: { $ref: 'https://schemas.example.com/evil.json' } } };
    expect(createArgsValidator().validate({ toolId: 'mcp:evil:remote', schema, args: { a: 1 } })).toEqual({
      ok: true,
      unchecked: 'schema has a $ref that is not local ("https://schemas.example.com/evil.json")',
    });
  });

  it("keeps one tool's $id out of another tool's schema", () => {
    const validator = createArgsValidator();
    const first = { $id: 'https://x.example/shared', type: 'object', properties: { a: { type: 'string' } } };
    expect(validator.validate({ toolId: 'mcp:a:t', schema: first, args: { a: 'ok' } })).toEqual({ ok: true });
    // The same $id again (another server) compiles; it was never registered.
    expect(validator.validate({ toolId: 'mcp:b:t', schema: { ...first }, args: { a: 'ok' } })).toEqual({ ok: true });
    const reaching = { type: 'object', properties: { b: { $ref: '#/definitions/none' } } };
    expect(validator.validate({ toolId: 'mcp:c:t', schema: reaching, args: { b: 1 } })).toMatchObject({ ok: true, unchecked: expect.stringContaining('does not compile') });
  });

  it('skips a pattern RE2 cannot run and still enforces the rest of the schema', () => {
    const schema = { type: 'object', properties: { p: { type: 'string', pattern: '^(?=.*\\d)\\w+$', maxLength: 3 } }, required: ['p'] };
    const validator = createArgsValidator();
    expect(validator.validate({ toolId: 'look', schema, args: { p: 'abc' } })).toEqual({ ok: true });
    expect(!validator.validate({ toolId: 'look', schema, args: { p: 'abcd' } }).ok).toBe(true);
  });

  it('runs patternProperties through RE2', () => {
    const schema = { type: 'object', patternProperties: { '^x-': { type: 'number' } } };
    const result = createArgsValidator().validate({ toolId: 'pp', schema, args: { 'x-a': 'no', other: 'fine' } });
    expect(!result.ok && result.problems.map(renderArgsProblem)).toEqual(['args.x-a must be number']);
  });

  it('keeps working past its cache size (least recently used schemas are dropped and recompiled)', () => {
    const validator = createArgsValidator({ maxCached: 2 });
    const schemaFor = (name: string) => ({ type: 'object', properties: { [name]: { type: 'number' } }, required: [name] });
    for (let round = 0; round < 3; round += 1) {
      for (const name of ['a', 'b', 'c', 'd']) {
        expect(validator.validate({ toolId: name, schema: schemaFor(name), args: { [name]: 1 } })).toEqual({ ok: true });
        expect(validator.validate({ toolId: name, schema: schemaFor(name), args: {} }).ok).toBe(false);
      }
    }
  });

  it('compiles a schema at the size limit', () => {
    const properties: Record<string, unknown> = {};
    for (let index = 0; index < 300; index += 1) {
      properties[`field_${index}`] = { type: 'string', pattern: '^[a-z]+$', description: 'x'.repeat(60), enum: ['a', 'b'] };
    }
    const result = createArgsValidator().validate({ toolId: 'wide', schema: { type: 'object', properties }, args: { field_7: 'c' } });
    expect(!result.ok && result.problems.map(renderArgsProblem)).toEqual(['args.field_7 must be one of "a", "b"']);
  });
});

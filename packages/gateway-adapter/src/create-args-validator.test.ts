import { describe, expect, it } from 'vitest';
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

  it('says which required parameter is missing and shows the signature', () => {
    const result = createArgsValidator().validate({ toolId: 'mcp:gh:create_issue', schema, args: { owner: 'o', repo: 'r' }, signature });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual(['missing required parameter "title"']);
    expect(result.message).toBe(`Invalid arguments for mcp:gh:create_issue: missing required parameter "title". Expected: ${signature}`);
  });

  it('suggests the near parameter name for a misspelt one', () => {
    const result = createArgsValidator().validate({ toolId: 't', schema, args: { owner: 'o', repo: 'r', titel: 'x' } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual(['missing required parameter "title"', 'unknown parameter "titel"']);
    expect(result.suggestions).toEqual({ titel: ['title'] });
    expect(result.message).toContain('"titel": did you mean "title"?');
  });

  it('reports wrong types with the path', () => {
    const result = createArgsValidator().validate({ toolId: 't', schema, args: { owner: 'o', repo: 'r', title: 'x', labels: [1] } });
    expect(!result.ok && result.problems).toEqual(['args.labels.0 must be string']);
  });

  it('lists allowed values for an enum', () => {
    const result = createArgsValidator().validate({ toolId: 't', schema, args: { owner: 'o', repo: 'r', title: 'x', state: 'shut' } });
    expect(!result.ok && result.problems).toEqual(['args.state must be one of "open", "closed"']);
  });

  it('checks formats', () => {
    const result = createArgsValidator().validate({ toolId: 't', schema, args: { owner: 'o', repo: 'r', title: 'x', email: 'nope' } });
    expect(!result.ok && result.problems).toEqual(['args.email must match format "email"']);
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

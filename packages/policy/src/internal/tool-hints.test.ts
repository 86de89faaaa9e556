import { describe, expect, it } from 'vitest';
import type { PolicyToolAnnotations } from '../types';
import { checkAnnotationsShape, describeUnknownHint, HINT_BITS, hintBitsOf, toHintName } from './tool-hints';

const names = (bits: number) => Object.entries(HINT_BITS).filter(([, bit]) => (bits & bit) !== 0).map(([name]) => name);

describe('hintBitsOf', () => {
  it.each<[string, PolicyToolAnnotations | undefined, string[]]>([
    ['no annotations: the spec defaults', undefined, ['destructive', 'openWorld']],
    ['an empty object: the spec defaults', {}, ['destructive', 'openWorld']],
    ['only a title: the spec defaults', { title: 'Delete' }, ['destructive', 'openWorld']],
    ['read-only, nothing else stated', { readOnlyHint: true }, ['readOnly', 'idempotent', 'openWorld']],
    ['read-only in a closed world', { readOnlyHint: true, openWorldHint: false }, ['readOnly', 'idempotent']],
    ['additive and idempotent', { destructiveHint: false, idempotentHint: true }, ['idempotent', 'openWorld']],
    ['read-only but stated destructive (as stated)', { readOnlyHint: true, destructiveHint: true }, ['readOnly', 'destructive', 'idempotent', 'openWorld']],
    ['read-only but stated not idempotent (as stated)', { readOnlyHint: true, idempotentHint: false }, ['readOnly', 'openWorld']],
    ['everything stated false', { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }, []],
  ])('reads %s', (_label, annotations, expected) => {
    expect(names(hintBitsOf(annotations))).toEqual(expected);
  });
});

describe('toHintName', () => {
  it('takes any case and returns the canonical spelling', () => {
    expect(toHintName('READONLY')).toBe('readOnly');
    expect(toHintName('openworld')).toBe('openWorld');
    expect(toHintName('destrutive')).toBeUndefined();
  });
});

describe('describeUnknownHint', () => {
  it('lists the known hints', () => {
    expect(describeUnknownHint('destrutive')).toBe(
      "unknown hint 'destrutive'; expected one of 'readOnly', 'destructive', 'idempotent', 'openWorld'",
    );
  });

  it('points at the hint when given the annotation key', () => {
    expect(describeUnknownHint('destructiveHint')).toBe("unknown hint 'destructiveHint'; write 'hint:destructive' (without the 'Hint' suffix)");
  });
});

describe('checkAnnotationsShape', () => {
  it('accepts absent or well-formed annotations and ignores keys it does not read', () => {
    expect(checkAnnotationsShape(undefined)).toBeUndefined();
    expect(checkAnnotationsShape({ title: 'T', readOnlyHint: true, vendorHint: 'x' })).toBeUndefined();
  });

  it.each([
    [null, 'annotations must be an object when present'],
    [[true], 'annotations must be an object when present'],
    ['readOnly', 'annotations must be an object when present'],
    [{ readOnlyHint: 'true' }, 'annotations.readOnlyHint must be a boolean when present'],
    [{ openWorldHint: 0 }, 'annotations.openWorldHint must be a boolean when present'],
    [{ title: 7 }, 'annotations.title must be a string when present'],
  ])('rejects %j', (annotations, message) => {
    expect(checkAnnotationsShape(annotations)).toBe(message);
  });
});

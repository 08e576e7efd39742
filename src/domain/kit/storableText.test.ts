import { describe, expect, it } from 'vitest';
import { findUnstorableText } from './storableText.ts';

describe('unstorable text', () => {
  it('names the path of a NUL or a lone surrogate, in values and keys, and passes emoji', () => {
    expect(findUnstorableText({ a: 'ok 😀', b: ['x', { c: 'N\u0000L' }] })?.path).toEqual(['b', '1', 'c']);
    expect(findUnstorableText({ name: 'lone \uD800 high' })?.path).toEqual(['name']);
    expect(findUnstorableText({ name: 'lone \uDC00 low' })?.path).toEqual(['name']);
    expect(findUnstorableText({ 'k\u0000': 1 })).toEqual({ path: ['k\uFFFD'], inName: true });
    expect(findUnstorableText({ first: 'a\u0000', second: 'b\u0000' })).toEqual({ path: ['first'], inName: false });
    expect(findUnstorableText({ name: 'pair \uD83D\uDE00' })).toBeNull();
  });

  it('walks any depth without overflowing the stack', () => {
    let deep: unknown = 'bad\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnstorableText(deep)?.path).toHaveLength(100_000);
  });
});

import { describe, expect, it } from 'vitest';
import { pictureKey, pictureTypeOf, pictureUrl } from './picture.ts';

const bytes = (...parts: (number[] | string)[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('profile pictures', () => {
  it('knows PNG, JPEG, GIF and WebP by their first bytes', () => {
    expect(pictureTypeOf(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(pictureTypeOf(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(pictureTypeOf(bytes('GIF89a', [1, 2]))).toBe('image/gif');
    expect(pictureTypeOf(bytes('GIF87a'))).toBe('image/gif');
    expect(pictureTypeOf(bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '))).toBe('image/webp');
  });

  it('refuses anything else, whatever it is called', () => {
    for (const b of [
      bytes(''),
      bytes('hello.png'),
      bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      bytes('RIFF', [0, 0, 0, 0], 'WAVE'),
      bytes([0x89], 'PN'),
    ])
      expect(pictureTypeOf(b)).toBeNull();
  });

  it('keeps the bytes by tutor and hash, and versions the URL by the hash', () => {
    const hash = 'ab'.repeat(32);
    const key = pictureKey('t1', hash, 'image/jpeg');
    expect(key).toBe(`profile-pictures/t1/${hash}.jpg`);
    expect(pictureUrl('t1', key)).toBe('/api/tutors/t1/picture?v=abababababab');
    expect(pictureUrl('t1', null)).toBeNull();
    expect(pictureUrl('t1', '[erased]')).toBe('/api/tutors/t1/picture');
  });
});

import { describe, expect, it } from 'vitest';
import { deterministicUuid, eventIdFor } from './commandContext.ts';

/**
 * Stream, event, job and command ids derived from these are stored: the same name must give the
 * same id in every release. Pinned from the implementation as it was when ids were first stored.
 */
describe('deterministicUuid', () => {
  it('gives the ids already stored for these names', () => {
    expect(deterministicUuid('')).toBe('da39a3ee-5e6b-5b0d-b255-bfef95601890');
    expect(deterministicUuid('redemption/p-1')).toBe('cf8789e3-e6d6-50a5-b2c1-27f1df218bfb');
    expect(deterministicUuid('purchase-timeout/abc/abandon')).toBe('c548408d-46b2-56d1-adf9-b72ef4b69267');
    expect(eventIdFor('cmd-1', 0)).toBe('ea804a36-08e6-5601-bd4b-553fb42dd13a');
  });

  it('is a version-5, RFC 4122 variant UUID, different for different names', () => {
    const id = deterministicUuid('session-settlement/e-1');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(deterministicUuid('session-settlement/e-2')).not.toBe(id);
    expect(deterministicUuid('session-settlement/e-1')).toBe(id);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The dependency rules keep I/O and frameworks out of src/domain; this keeps the clock out: time
 * arrives in the command's metadata, so deciders stay pure and their tests need no fake clock.
 */
describe('the domain reads no clock', () => {
  it('never calls Temporal.Now, Date.now or new Date() in src/domain', () => {
    const root = join(import.meta.dirname, '..', '..', 'src', 'domain');
    const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.filter((f) => /Temporal\.Now|Date\.now\(|new Date\(\)/.test(readFileSync(join(root, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});

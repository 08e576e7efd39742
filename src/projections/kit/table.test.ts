import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import type { TransactionSql } from '../../adapters/db/db.ts';
import { foldRows } from './foldRows.ts';
import { boolean, int, jsonb, type ReadRowOf, type RowOf, table, text, timestamptz, uuid } from './table.ts';
import { copyRows, deleteRows, insertRows, updateRows } from './writes.ts';

const widgets = table(
  'widgets',
  {
    id: uuid().primaryKey(),
    label: text<'a' | 'b'>().default('a'),
    count: int().nullable(),
    active: boolean().default(false),
    meta: jsonb<{ tags: string[] }>().nullable(),
    position: text().collate('C'),
    at: timestamptz(),
  },
  { indexes: [{ name: 'widgets_label', on: ['lower(label)', 'at DESC'], unique: true, where: 'count IS NOT NULL' }] },
);

describe('table', () => {
  it('derives the DDL from the columns', () => {
    expect(widgets.ddl).toContain(`CREATE TABLE IF NOT EXISTS widgets (
  "id" uuid PRIMARY KEY,
  "label" text NOT NULL DEFAULT 'a',
  "count" int,
  "active" boolean NOT NULL DEFAULT false,
  "meta" jsonb,
  "position" text COLLATE "C" NOT NULL,
  "at" timestamptz NOT NULL
);`);
    expect(widgets.indexStatements).toEqual([
      'CREATE UNIQUE INDEX IF NOT EXISTS widgets_label ON widgets (lower(label), at DESC) WHERE count IS NOT NULL;',
    ]);
    expect(widgets.columnNames).toEqual(['id', 'label', 'count', 'active', 'meta', 'position', 'at']);
    expect(widgets.primaryKey).toBe('id');
    expect([widgets.sqlTypeOf('id'), widgets.sqlTypeOf('at')]).toEqual(['uuid', 'timestamptz']);
  });

  it('derives the row types: written timestamps are ISO strings, read ones dates', () => {
    const row: RowOf<typeof widgets> = {
      id: 'x',
      label: 'b',
      count: null,
      active: true,
      meta: { tags: [] },
      position: 'p',
      at: '2025-01-01T00:00:00.000Z',
    };
    // @ts-expect-error the label is 'a' | 'b'
    const wrong: RowOf<typeof widgets>['label'] = 'c';
    const read: ReadRowOf<typeof widgets>['at'] = new Date();
    expect([row, wrong, read]).toHaveLength(3);
  });

  it('refuses names that would need quoting, and a table without exactly one primary key', () => {
    expect(() => table('Bad-Name', { id: text().primaryKey() })).toThrow('not a plain lower-case SQL name');
    expect(() => table('t', { 'a b': text().primaryKey() })).toThrow('not a plain lower-case SQL name');
    expect(() => table('t', { a: text() })).toThrow('exactly one primary-key column');
    expect(() => table('t', { a: text().primaryKey(), b: text().primaryKey() })).toThrow('exactly one primary-key column');
  });
});

describe('table writes against PostgreSQL', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('kit');
  });
  afterAll(() => db.drop());

  const row = (id: string, overrides: Partial<RowOf<typeof widgets>> = {}): RowOf<typeof widgets> => ({
    id,
    label: 'a',
    count: 1,
    active: false,
    meta: { tags: ['x'] },
    position: '0001',
    at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  });
  const ids = [
    '00000000-0000-4000-8000-000000000001',
    '00000000-0000-4000-8000-000000000002',
    '00000000-0000-4000-8000-000000000003',
  ] as const;
  const all = () => db.sql<ReadRowOf<typeof widgets>[]>`SELECT * FROM widgets ORDER BY id`;

  it('creates the table and indexes idempotently, in the schema the search_path names first', async () => {
    await db.sql.unsafe(widgets.ddl);
    await db.sql.unsafe(widgets.ddl);
    for (const index of widgets.indexStatements) await db.sql.unsafe(index);
    await db.sql.begin(async (tx) => {
      await tx.unsafe('CREATE SCHEMA rebuild_widgets; SET LOCAL search_path TO rebuild_widgets, public');
      await tx.unsafe(widgets.ddl);
      for (const index of widgets.indexStatements) await tx.unsafe(index);
    });
    const tables = await db.sql`SELECT schemaname FROM pg_tables WHERE tablename = 'widgets' ORDER BY 1`;
    expect(tables.map((t) => t.schemaname)).toEqual(['public', 'rebuild_widgets']);
    const indexes = await db.sql`SELECT schemaname FROM pg_indexes WHERE indexname = 'widgets_label' ORDER BY 1`;
    expect(indexes.map((t) => t.schemaname)).toEqual(['public', 'rebuild_widgets']);
  });

  it('adds a nullable column an existing table lacks, and leaves an up-to-date one alone', async () => {
    await db.sql.unsafe('ALTER TABLE widgets DROP COLUMN meta');
    await db.sql.unsafe(widgets.ddl);
    const [column] =
      await db.sql`SELECT data_type FROM information_schema.columns WHERE table_name = 'widgets' AND column_name = 'meta' AND table_schema = 'public'`;
    expect(column?.data_type).toBe('jsonb');
  });

  it('inserts, updates and deletes rows in one statement each, typed by the table', async () => {
    const write = (work: (tx: TransactionSql) => Promise<void>) => db.sql.begin(work);
    await write((tx) => insertRows(tx, widgets, [row(ids[0]), row(ids[1], { label: 'b', count: null, meta: null })], 'nothing'));
    await write((tx) => insertRows(tx, widgets, [row(ids[0], { label: 'b' })], 'nothing'));
    expect((await all()).map((r) => [r.label, r.count, r.meta])).toEqual([
      ['a', 1, { tags: ['x'] }],
      ['b', null, null],
    ]);
    await write((tx) => insertRows(tx, widgets, [row(ids[0], { active: true, at: '2025-02-01T00:00:00.000Z' })], 'update'));
    expect((await all())[0]).toMatchObject({ active: true, at: new Date('2025-02-01T00:00:00.000Z') });
    await write((tx) =>
      updateRows(
        tx,
        widgets,
        ['count'],
        [
          { id: ids[1], count: 5 },
          { id: ids[1], count: 7 },
          { id: ids[2], count: 9 },
        ],
      ),
    );
    expect((await all()).map((r) => r.count)).toEqual([1, 7]);
    await write((tx) => deleteRows(tx, widgets, 'id', [ids[0], ids[0]]));
    expect((await all()).map((r) => r.id)).toEqual([ids[1]]);
  });

  it('inserts column-wise with every value round-tripping: control characters, backslashes, quotes, nulls, json', async () => {
    const before = await all();
    await db.sql`DELETE FROM widgets`;
    const awkward = 'tab\there\nnew line\r\\back\\slash \\N "quoted" é 🎓';
    const rows = [
      row(ids[0], { label: 'a', count: null, active: true, meta: { tags: [awkward, '\\N', ''] }, position: awkward }),
      row(ids[1], { label: 'b', count: -42, meta: null, at: '2026-03-08T07:00:00.000Z' }),
    ];
    await db.sql.begin((tx) => insertRows(tx, widgets, rows, 'nothing'));
    const read = await all();
    expect(read.map((r) => [r.label, r.count, r.active, r.meta, r.position, r.at.toISOString()])).toEqual([
      ['a', null, true, { tags: [awkward, '\\N', ''] }, awkward, '2025-01-01T00:00:00.000Z'],
      ['b', -42, false, null, '0001', '2026-03-08T07:00:00.000Z'],
    ]);
    await db.sql.begin((tx) => insertRows(tx, widgets, [row(ids[1], { count: 1 })], 'nothing'));
    expect((await all()).map((r) => r.count)).toEqual([null, -42]);
    // The next test starts from the rows the one before left.
    await db.sql`DELETE FROM widgets`;
    await db.sql.begin((tx) => insertRows(tx, widgets, before as unknown as RowOf<typeof widgets>[], 'nothing'));
  });

  it('bulk-loads rows by COPY with every value round-tripping; a COPY the server refuses rejects and leaves the transaction usable', async () => {
    await db.sql.unsafe(`CREATE TABLE copied (LIKE widgets INCLUDING ALL)`);
    const copied = { ...widgets, name: 'copied' };
    const awkward = 'tab\there\nnew line\r\\back\\slash \\N "quoted" é 🎓 \\.';
    const rows = [
      row(ids[0], { count: null, active: true, meta: { tags: [awkward, '\\N', '', '\t'] }, position: awkward }),
      row(ids[1], { label: 'b', count: -42, meta: null, at: '2026-03-08T07:00:00.000Z' }),
    ];
    await db.sql.begin((tx) => copyRows(tx, copied, rows));
    const read = await db.sql<ReadRowOf<typeof widgets>[]>`SELECT * FROM copied ORDER BY id`;
    expect(read.map((r) => [r.label, r.count, r.active, r.meta, r.position, r.at.toISOString()])).toEqual([
      ['a', null, true, { tags: [awkward, '\\N', '', '\t'] }, awkward, '2025-01-01T00:00:00.000Z'],
      ['b', -42, false, null, '0001', '2026-03-08T07:00:00.000Z'],
    ]);
    // The same id again violates the primary key once the COPY is complete (postgres.js left such a COPY waiting for good).
    const outcome = await db.sql.begin(async (tx) => {
      const failed = await tx
        .savepoint((sp) => copyRows(sp, copied, [row(ids[2]), row(ids[0])]))
        .then(
          () => null,
          (error: unknown) => (error as { code?: string }).code,
        );
      await copyRows(tx, copied, [row(ids[2], { label: 'b' })]);
      return failed;
    });
    expect(outcome).toBe('23505');
    expect((await db.sql`SELECT id, label FROM copied ORDER BY id`).map((r) => [r.id, r.label])).toEqual([
      [ids[0], 'a'],
      [ids[1], 'b'],
      [ids[2], 'b'],
    ]);
    // A value the column's type refuses fails while the rows are still arriving.
    await expect(db.sql.begin((tx) => copyRows(tx, copied, [row(ids[2], { at: 'not a time' })]))).rejects.toMatchObject({ code: '22007' });
  });

  it('bulk-loads many rows in chunks; a bad row among them fails the COPY, which rolls back to its savepoint', async () => {
    await db.sql.unsafe(`CREATE TABLE copied_many (LIKE widgets INCLUDING ALL)`);
    const many = { ...widgets, name: 'copied_many' };
    const idOf = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const rows = Array.from({ length: 3000 }, (_, i) =>
      row(idOf(i), { count: null, position: `${i}`.padStart(8, '0'), meta: { tags: ['x'.repeat(60), `\t${i}`] } }),
    );
    const failed = await db.sql.begin(async (tx) => {
      const outcome = await tx
        .savepoint((sp) =>
          copyRows(
            sp,
            many,
            rows.map((r, i) => (i === 2500 ? { ...r, at: 'not a time' } : r)),
          ),
        )
        .then(
          () => null,
          (error: unknown) => (error as { code?: string }).code,
        );
      await copyRows(tx, many, rows);
      return outcome;
    });
    expect(failed).toBe('22007');
    const [counted] = await db.sql<{ n: number; last: { tags: string[] } }[]>`
      SELECT count(*)::int AS n, (SELECT meta FROM copied_many ORDER BY position DESC LIMIT 1) AS last FROM copied_many`;
    expect(counted).toEqual({ n: 3000, last: { tags: ['x'.repeat(60), '\t2999'] } });
  });

  it('folds events over the rows they touch, writing only what changed', async () => {
    type Change = { id: string; count: number | null } | { id: string; gone: true };
    const changes: Change[] = [
      { id: ids[1], count: 8 },
      { id: ids[2], count: 1 },
      { id: ids[2], count: 2 },
      { id: ids[1], gone: true },
    ];
    await db.sql.begin((tx) =>
      foldRows(tx, widgets, changes, {
        keyOf: (c) => c.id,
        apply: (current, c) => ('gone' in c ? null : current ? { ...current, count: c.count } : row(c.id, { count: c.count, label: 'b' })),
      }),
    );
    expect((await all()).map((r) => [r.id, r.count])).toEqual([[ids[2], 2]]);
  });
});

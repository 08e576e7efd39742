/**
 * One definition per read-model table, from which everything else derives: the DDL the runner
 * runs (unqualified names, so a rebuild's `search_path` points it at fresh tables), the row type
 * projectors write (`RowOf`), the row type queries read (`ReadRowOf`), and the column list and
 * column types of set-based writes.
 */

type SqlType = 'text' | 'boolean' | 'int' | 'timestamptz' | 'uuid' | 'jsonb';

interface ColumnSpec {
  readonly sqlType: SqlType;
  readonly nullable: boolean;
  readonly primaryKey: boolean;
  /** SQL literal of the default. */
  readonly default: string | null;
  readonly collation: string | null;
}

/**
 * A column: `Value` is what a projector writes (timestamps as ISO strings, as events carry them),
 * `Read` what PostgreSQL returns to a query (timestamps as `Date`).
 */
export interface Column<Value, Read = Value, Nullable extends boolean = false, Key extends boolean = false> {
  readonly spec: ColumnSpec;
  /** Type-level only: never set. */
  readonly __types?: { value: Value; read: Read; nullable: Nullable; key: Key };
  nullable(): Column<Value, Read, true, Key>;
  primaryKey(): Column<Value, Read, false, true>;
  default(value: Value & (string | number | boolean)): Column<Value, Read, Nullable, Key>;
  collate(collation: 'C'): Column<Value, Read, Nullable, Key>;
}

// Method syntax keeps a column of any value type assignable here.
type AnyColumn = Column<unknown, unknown, boolean, boolean>;
type Columns = Record<string, AnyColumn>;

const literal = (value: string | number | boolean) =>
  typeof value === 'string' ? `'${value.replaceAll("'", "''")}'` : typeof value === 'number' ? String(value) : value ? 'true' : 'false';

function column<Value, Read = Value, Nullable extends boolean = false, Key extends boolean = false>(
  spec: ColumnSpec,
): Column<Value, Read, Nullable, Key> {
  return {
    spec,
    nullable: () => column({ ...spec, nullable: true }),
    primaryKey: () => column({ ...spec, nullable: false, primaryKey: true }),
    default: (value) => column({ ...spec, default: literal(value) }),
    collate: (collation) => column({ ...spec, collation }),
  };
}

const base = (sqlType: SqlType): ColumnSpec => ({ sqlType, nullable: false, primaryKey: false, default: null, collation: null });

/** `text`; the type parameter narrows the value (a role, a status). */
export const text = <T extends string = string>() => column<T>(base('text'));
export const boolean = () => column<boolean>(base('boolean'));
export const int = () => column<number>(base('int'));
export const uuid = () => column<string>(base('uuid'));
/** Written as the ISO string events carry; read back as a `Date`. */
export const timestamptz = () => column<string, Date>(base('timestamptz'));
export const jsonb = <T>() => column<T>(base('jsonb'));

type TypesOf<C> = C extends { readonly __types?: infer T } ? NonNullable<T> : never;
type ValueOf<C> = TypesOf<C> extends { value: infer V; nullable: infer N } ? (N extends true ? V | null : V) : never;
type ReadOf<C> = TypesOf<C> extends { read: infer R; nullable: infer N } ? (N extends true ? R | null : R) : never;
type KeyOf<Cols extends Columns> = { [K in keyof Cols]: TypesOf<Cols[K]> extends { key: true } ? K : never }[keyof Cols] & string;

/** An index key: a column, `lower(column)` or `column DESC`. */
export type IndexKey<C extends string> = C | `lower(${C})` | `${C} DESC`;

export interface IndexDefinition<C extends string> {
  /** Index names are schema-wide: keep them stable so existing databases are not indexed twice. */
  name: string;
  on: readonly IndexKey<C>[];
  unique?: boolean;
  where?: `${C} IS NOT NULL`;
}

export interface Table<Name extends string = string, Cols extends Columns = Columns, Key extends string = KeyOf<Cols>> {
  readonly name: Name;
  readonly columns: Cols;
  readonly columnNames: readonly (keyof Cols & string)[];
  readonly primaryKey: Key;
  /**
   * `CREATE TABLE IF NOT EXISTS`, then the nullable columns an existing table lacks are added
   * (checked first, so an up-to-date table is not locked). A new NOT NULL column needs a rebuild.
   */
  readonly ddl: string;
  /** `CREATE INDEX IF NOT EXISTS` of each secondary index, one statement per index: each can be built beside the others. */
  readonly indexStatements: readonly string[];
  /** SQL type of a column, as the column arrays' casts and COPY need it. */
  sqlTypeOf(column: keyof Cols & string): SqlType;
}

/** Any table, whatever its columns (structural: a `Table` instantiation would compare its column names contravariantly). */
export interface AnyTable {
  readonly name: string;
  // biome-ignore lint/suspicious/noExplicitAny: columns of any value type
  readonly columns: Record<string, Column<any, any, boolean, boolean>>;
  readonly columnNames: readonly string[];
  readonly primaryKey: string;
  readonly ddl: string;
  readonly indexStatements: readonly string[];
  sqlTypeOf(column: string): SqlType;
}

/** The row as projectors write it: timestamps as ISO strings. */
export type RowOf<T extends AnyTable> = { [K in keyof T['columns']]: ValueOf<T['columns'][K]> };
/** The row as a query reads it: timestamps as `Date`. */
export type ReadRowOf<T extends AnyTable> = { [K in keyof T['columns']]: ReadOf<T['columns'][K]> };
export type ColumnOf<T extends AnyTable> = keyof T['columns'] & string;

const identifier = /^[a-z_][a-z0-9_]*$/;
export const quoted = (name: string) => `"${name}"`;

export function table<const Name extends string, const Cols extends Columns>(
  name: Name,
  columns: Cols,
  options: { indexes?: readonly IndexDefinition<keyof Cols & string>[] } = {},
): Table<Name, Cols> {
  const names = Object.keys(columns) as (keyof Cols & string)[];
  for (const n of [name, ...names]) if (!identifier.test(n)) throw new Error(`${n} is not a plain lower-case SQL name`);
  const keys = names.filter((n) => columns[n]?.spec.primaryKey);
  if (keys.length !== 1) throw new Error(`Table ${name} needs exactly one primary-key column`);
  const primaryKey = keys[0] as KeyOf<Cols>;
  const spec = (n: keyof Cols & string) => (columns[n] as AnyColumn).spec;
  const definition = (n: keyof Cols & string) => {
    const s = spec(n);
    return [
      quoted(n),
      s.sqlType,
      s.collation ? `COLLATE "${s.collation}"` : '',
      s.primaryKey ? 'PRIMARY KEY' : s.nullable ? '' : 'NOT NULL',
      s.default !== null ? `DEFAULT ${s.default}` : '',
    ]
      .filter(Boolean)
      .join(' ');
  };
  const addable = names.filter((n) => spec(n).nullable);
  const missing = addable.map((n) => `('${n}', '${definition(n).replaceAll("'", "''")}')`).join(', ');
  const ddl = `CREATE TABLE IF NOT EXISTS ${name} (\n  ${names.map(definition).join(',\n  ')}\n);${
    addable.length === 0
      ? ''
      : `
DO $$ DECLARE c record; BEGIN
  FOR c IN SELECT * FROM (VALUES ${missing}) AS v(name, definition)
    WHERE NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = '${name}'::regclass AND attname = v.name AND NOT attisdropped)
  LOOP EXECUTE 'ALTER TABLE ${name} ADD COLUMN ' || c.definition; END LOOP;
END $$;`
  }`;
  const indexes = options.indexes ?? [];
  for (const index of indexes) if (!identifier.test(index.name)) throw new Error(`${index.name} is not a plain lower-case SQL name`);
  const indexStatements = indexes.map(
    (i) =>
      `CREATE ${i.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${i.name} ON ${name} (${i.on.join(', ')})${i.where ? ` WHERE ${i.where}` : ''};`,
  );
  return {
    name,
    columns,
    columnNames: names,
    primaryKey,
    ddl,
    indexStatements,
    sqlTypeOf: (n) => spec(n).sqlType,
  };
}

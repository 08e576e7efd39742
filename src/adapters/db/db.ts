import postgres from 'postgres';

export type Sql = postgres.Sql;
export type TransactionSql = postgres.TransactionSql;

export function connect(url: string, options: { max?: number } = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    // bigint columns (positions, counts) come back as JS numbers where they fit
    types: { bigint: postgres.BigInt },
    transform: { undefined: null },
    connection: { application_name: 'topmark' },
  });
}

import { describe, expect, it } from 'vitest';
import { serverPageQuery } from './ConsoleFilters.tsx';

const SORTABLE = new Set(['createdAt', 'name']);
const page = { pageIndex: 2, pageSize: 25 };

describe('serverPageQuery', () => {
  it('asks for the header’s column and direction, pages counted from 1', () => {
    expect(serverPageQuery([{ id: 'name', desc: false }], page, SORTABLE, 'createdAt')).toEqual({
      sort: 'name',
      order: 'asc',
      page: 3,
      pageSize: 25,
    });
  });

  it('falls back to its own column, newest first, when unsorted or sorted by a column the server does not sort', () => {
    const fallback = { sort: 'createdAt', order: 'desc', page: 1, pageSize: 10 };
    expect(serverPageQuery([], { pageIndex: 0, pageSize: 10 }, SORTABLE, 'createdAt')).toEqual(fallback);
    expect(serverPageQuery([{ id: 'email', desc: true }], { pageIndex: 0, pageSize: 10 }, SORTABLE, 'createdAt')).toEqual(fallback);
  });
});

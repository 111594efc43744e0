import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { finishPage, planPage, type TSortDirection } from './pagination.js';

/** Applies a plan to an in-memory, sorted list of ids: the reference the SQL must match. */
function runPlan(ids: string[], direction: TSortDirection, page: { limit: number; before?: string; after?: string }): string[] {
  const plan = planPage(direction, page);
  let rows = ids.slice().sort();
  if (plan.queryDirection === 'desc') rows.reverse();
  if (plan.idFilter && 'gt' in plan.idFilter) rows = rows.filter((id) => id > (plan.idFilter as { gt: string }).gt);
  if (plan.idFilter && 'lt' in plan.idFilter) rows = rows.filter((id) => id < (plan.idFilter as { lt: string }).lt);
  return finishPage(plan, rows.slice(0, plan.take));
}

const ids = Array.from({ length: 25 }, (_, i) => `id-${String(i).padStart(2, '0')}`);

describe('cursor pagination', () => {
  it('pages forward through an ascending listing with after', () => {
    const p1 = runPlan(ids, 'asc', { limit: 10 });
    const p2 = runPlan(ids, 'asc', { limit: 10, after: p1.at(-1)! });
    const p3 = runPlan(ids, 'asc', { limit: 10, after: p2.at(-1)! });
    expect(p1).toEqual(ids.slice(0, 10));
    expect(p2).toEqual(ids.slice(10, 20));
    expect(p3).toEqual(ids.slice(20));
  });

  it('pages backward with before, keeping listing order', () => {
    expect(runPlan(ids, 'asc', { limit: 3, before: 'id-10' })).toEqual(['id-07', 'id-08', 'id-09']);
    expect(runPlan(ids, 'desc', { limit: 3, before: 'id-10' })).toEqual(['id-13', 'id-12', 'id-11']);
  });

  it('pages a descending listing with after', () => {
    expect(runPlan(ids, 'desc', { limit: 2, after: 'id-05' })).toEqual(['id-04', 'id-03']);
  });

  it('refuses both cursors', () => {
    expect(() => planPage('asc', { limit: 1, before: 'a', after: 'b' })).toThrow(/mutually exclusive/);
  });

  it('walking with after visits every item exactly once, in order (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ unit: fc.constantFrom(...'0123456789abcdef'.split('')), minLength: 4, maxLength: 4 }), { maxLength: 60 }), fc.integer({ min: 1, max: 100 }), fc.constantFrom<TSortDirection>('asc', 'desc'), (list, limit, dir) => {
        const seen: string[] = [];
        let after: string | undefined;
        for (let guard = 0; guard < 100; guard++) {
          const page = runPlan(list, dir, after === undefined ? { limit } : { limit, after });
          seen.push(...page);
          if (page.length < limit) break;
          after = page.at(-1);
        }
        const expected = list.slice().sort();
        if (dir === 'desc') expected.reverse();
        expect(seen).toEqual(expected);
      }),
    );
  });
});

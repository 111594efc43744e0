/**
 * Cursor pagination over UUIDv7 ids. Ids sort in creation order (bytewise, COLLATE "C"), so a
 * cursor is simply an id: `after` returns the items that follow it in the listing's order and
 * `before` the items that precede it, nearest first on the wire in listing order. Pure functions;
 * the repositories feed their results to Prisma.
 */

export type TSortDirection = 'asc' | 'desc';

export interface TPageRequest {
  limit: number;
  before?: string | undefined;
  after?: string | undefined;
}

export interface TPageQuery {
  /** Prisma `where` fragment for the id column. */
  idFilter: { gt: string } | { lt: string } | undefined;
  /** Order to query in; may be the reverse of the listing's order (for `before`). */
  queryDirection: TSortDirection;
  take: number;
  /** Whether the fetched rows must be reversed back into listing order. */
  reverse: boolean;
}

/**
 * Turns a page request into a query plan for a listing sorted by id in `direction`.
 * @throws Error when both cursors are given (the request schema rejects that earlier).
 */
export function planPage(direction: TSortDirection, page: TPageRequest): TPageQuery {
  if (page.before !== undefined && page.after !== undefined) throw new Error('before and after are mutually exclusive');
  const forwardOp = direction === 'asc' ? 'gt' : 'lt';
  const backwardOp = direction === 'asc' ? 'lt' : 'gt';
  const flip: TSortDirection = direction === 'asc' ? 'desc' : 'asc';
  if (page.before !== undefined) {
    return { idFilter: { [backwardOp]: page.before } as TPageQuery['idFilter'], queryDirection: flip, take: page.limit, reverse: true };
  }
  if (page.after !== undefined) {
    return { idFilter: { [forwardOp]: page.after } as TPageQuery['idFilter'], queryDirection: direction, take: page.limit, reverse: false };
  }
  return { idFilter: undefined, queryDirection: direction, take: page.limit, reverse: false };
}

/** Puts fetched rows back into listing order. */
export function finishPage<T>(plan: TPageQuery, rows: T[]): T[] {
  return plan.reverse ? rows.slice().reverse() : rows;
}

/**
 * `activities.live`: a tRPC subscription over SSE. An EventSource cannot send headers, so the
 * stamp rides in the connection parameters and signs the subscription's `input` query parameter
 * exactly as sent (see app.ts). Every second the engine lists the organization's latest
 * activities again with that same stamp — so a session that expires or is revoked ends the stream
 * with a 401, like any call — and what is new or changed since the last look is sent. A client
 * that reconnects gets the latest page again first: it assumes it missed something.
 */
import { ZListActivitiesRequestSchema, type TActivity, type TListActivitiesResponse } from '@latchkey/domain';
import { stampedProcedure } from '../trpc/init.js';

const POLL_MS = 1000;
const PAGE = 50;

export const liveActivities = stampedProcedure.input(ZListActivitiesRequestSchema).subscription(async function* ({ ctx, signal }) {
  const seen = new Map<string, string>();
  while (!signal?.aborted) {
    const { activities } = (await ctx.services.engine.query('list_activities', ctx.headers, ctx.raw)) as TListActivitiesResponse;
    const changed: TActivity[] = [];
    for (const a of activities.slice(0, PAGE)) {
      const version = `${a.status}:${a.updatedAt.seconds}:${a.updatedAt.nanos}`;
      if (seen.get(a.id) !== version) changed.push(a);
      seen.set(a.id, version);
    }
    if (changed.length > 0) yield { activities: changed };
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, POLL_MS);
      signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }
});

/**
 * Procedures that are the engine's own calls, so a router says only which query or activity each
 * is. Inputs are the public API's request bodies, parsed by the domain's zod schemas at this edge
 * (the dashboard's forms use the same ones); the engine then authenticates the raw bytes and
 * decides — policies, consensus and the activity log apply exactly as on the public API.
 * `CONSENSUS_NEEDED` comes back as the activity's status (200), never as an error.
 */
import { createActivityRequestSchema, type TActivity, type TActivityWire } from '@latchkey/domain';
import { z } from 'zod';
import { stampedProcedure } from './init.js';

/** A query of the public API (`/public/v1/query/<path>`), typed by what the engine answers. */
export function engineQuery<TOut, TIn extends z.ZodType>(path: string, input: TIn) {
  return stampedProcedure.input(input).query(async ({ ctx }) => (await ctx.services.engine.query(path, ctx.headers, ctx.raw)) as TOut);
}

/** The input schema of one activity kind: the public API's envelope with the kind's intent. */
export function activityInput<TIntent extends z.ZodType<Record<string, unknown>, Record<string, unknown>>>(wire: TActivityWire, intent: TIntent) {
  const types = wire.versions.map((v) => v.type) as [string, ...string[]];
  return createActivityRequestSchema(types, intent);
}

/** An activity of the signed-in user (`/public/v1/submit/<path>`). */
export function engineSubmit<TIntent extends z.ZodType<Record<string, unknown>, Record<string, unknown>>>(wire: TActivityWire, intent: TIntent) {
  return stampedProcedure.input(activityInput(wire, intent)).mutation(async ({ ctx }): Promise<{ activity: TActivity }> => ctx.services.engine.submit(wire.path, ctx.headers, ctx.raw));
}

/** Input of a read model: the organization asked about, plus the model's own fields. */
export const orgScoped = <T extends z.ZodRawShape>(shape: T) => z.object({ organizationId: z.string().min(1).max(256), ...shape });

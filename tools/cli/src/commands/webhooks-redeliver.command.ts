/**
 * `latchkey webhooks redeliver --event-id ID` | `--endpoint-id ID --dead`: queues one event, or
 * every dead letter of an endpoint, again — due now, same event id, a fresh attempt budget. The
 * same library function (`redeliver` of @latchkey/persistence) will serve the admin console.
 */
import { parseConfig, type TConfig } from '@latchkey/domain';
import { openDatabase, redeliver, type TRedeliverTarget } from '@latchkey/persistence';
import { defineCommand } from '../cli-command.js';
import { openMigratedDatabase } from '../database-setup.js';
import { UsageError } from '../usage-error.js';

interface TRedeliverOptions {
  eventId?: string;
  endpointId?: string;
  dead?: boolean;
}

/** @throws UsageError unless exactly one of `--event-id` and `--endpoint-id … --dead` is given. */
export function redeliverTarget(o: TRedeliverOptions): TRedeliverTarget {
  if (o.eventId !== undefined && o.endpointId === undefined && !o.dead) {
    if (o.eventId === '') throw new UsageError('--event-id must not be empty');
    return { eventId: o.eventId };
  }
  if (o.eventId === undefined && o.endpointId !== undefined) {
    if (!o.dead) throw new UsageError('--endpoint-id redelivers the endpoint\'s dead letters only: add --dead');
    if (o.endpointId === '') throw new UsageError('--endpoint-id must not be empty');
    return { endpointId: o.endpointId, dead: true };
  }
  throw new UsageError('webhooks redeliver takes either --event-id <id> or --endpoint-id <id> --dead');
}

/** @throws Error when the database is unreachable. */
export async function webhooksRedeliverCommand(config: TConfig, target: TRedeliverTarget): Promise<{ redelivered: number }> {
  const database = await openMigratedDatabase(config, { reuseRunning: true, log: () => undefined });
  const db = openDatabase(database.url, { max: 2 });
  try {
    return { redelivered: await redeliver(db, target) };
  } finally {
    await db.close();
    await database.release();
  }
}

export const webhooksRedeliver = defineCommand<TRedeliverOptions>({
  name: 'webhooks redeliver',
  summary: 'send one webhook event again, or every dead letter of an endpoint',
  details:
    'Queues the messages again, due now, with the same event id (X-Turnkey-Event-Id) and a fresh attempt budget; the running workers send them. Prints {"redelivered": n}. Legacy FEATURE_NAME_WEBHOOK deliveries are under the endpoint id org-feature-webhook:<organizationId>.',
  options: [
    { flags: '--event-id <id>', description: 'the X-Turnkey-Event-Id of the delivery to send again' },
    { flags: '--endpoint-id <id>', description: 'an endpoint whose dead letters to send again (with --dead)' },
    { flags: '--dead', description: "with --endpoint-id: every dead-lettered message of the endpoint" },
  ],
  run: (o, { env }) => webhooksRedeliverCommand(parseConfig(env), redeliverTarget(o)),
});

/**
 * Redelivery, for the CLI (`webhooks redeliver`) and later the admin console: one event by id, or
 * everything dead-lettered for an endpoint. The message keeps its event id, so a receiver that
 * already processed it recognises the repeat.
 */
import type { TDatabase } from '../database.js';
import { webhookDeliveryRepository, type TRedeliverTarget } from '../repositories/webhook-delivery-repository.js';

/**
 * Queues the target again, due now, with a fresh attempt budget; returns how many messages.
 * @throws TypeError if the target names neither a non-empty event id nor an endpoint id with `dead: true`.
 */
export async function redeliver(db: TDatabase, target: TRedeliverTarget): Promise<number> {
  if ('eventId' in target) {
    if (typeof target.eventId !== 'string' || target.eventId === '') throw new TypeError('eventId must be a non-empty string');
  } else if (typeof target.endpointId !== 'string' || target.endpointId === '' || target.dead !== true) {
    throw new TypeError('redeliver takes {eventId} or {endpointId, dead: true}');
  }
  return webhookDeliveryRepository(db).redeliver(target);
}

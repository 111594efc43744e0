/**
 * Submitting activities and queries with a stamper, for the proofs' set-up (users, keys,
 * sub-organizations, wallets, webhook endpoints): the answer parsed, anything but COMPLETED an error.
 */
import type { TTarget } from './platform.js';
import type { TStamper } from './stamp.js';

export interface TActivityAnswer {
  id: string;
  status: string;
  type: string;
  result: Record<string, Record<string, unknown>>;
}

/**
 * POSTs `body` to `/public/v1/<kind>/<name>` stamped by `stamper`; the parsed JSON.
 * @throws Error with the status and text when the answer is not a 200.
 */
export async function call(t: TTarget, stamper: TStamper, kind: 'submit' | 'query', name: string, body: unknown): Promise<Record<string, unknown>> {
  const text = JSON.stringify(body);
  const a = await t.http.post(`/public/v1/${kind}/${name}`, text, { 'X-Stamp': stamper.stamp(text) });
  if (a.status !== 200) throw new Error(`${kind}/${name}: ${a.status || a.error} ${a.text.slice(0, 300)}`);
  return JSON.parse(a.text) as Record<string, unknown>;
}

/**
 * Performs an activity and returns its result (the value under its one result key).
 * @throws Error when it is not COMPLETED at once.
 */
export async function perform(t: TTarget, stamper: TStamper, name: string, type: string, parameters: Record<string, unknown>, organizationId = t.organizationId): Promise<Record<string, unknown>> {
  const { activity } = (await call(t, stamper, 'submit', name, { type, timestampMs: String(Date.now()), organizationId, parameters })) as unknown as { activity: TActivityAnswer };
  if (activity.status !== 'ACTIVITY_STATUS_COMPLETED') throw new Error(`${name}: activity ${activity.id} is ${activity.status}: ${JSON.stringify(activity).slice(0, 400)}`);
  const [result] = Object.values(activity.result);
  return result ?? {};
}

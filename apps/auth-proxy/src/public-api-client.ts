/**
 * The proxy as an HTTP client of the public API: every forwarded call is an activity (or a query)
 * stamped with the proxy user's API key, exactly as any Turnkey SDK would send it. A refusal comes
 * back as the public API's own `{code, message, details}` and is passed on with its status, so the
 * messages @turnkey/core matches by substring (notes §A1) reach it unchanged.
 */
import { signP256 } from '@latchkey/crypto';
import { AppError, ERROR_TABLE, type TActivity, type TErrorCode } from '@latchkey/domain';

export interface TSigner {
  organizationId: string;
  publicKey: string;
  privateKeyHex: string;
}

/** Re-raises a public-API error response as the same AppError (code, message, fields). */
export async function appErrorOfResponse(res: Response): Promise<AppError> {
  let body: { message?: unknown; details?: { latchkeyErrorCode?: unknown; fields?: unknown }[] } = {};
  try {
    body = (await res.json()) as typeof body;
  } catch {
    // not JSON: described by the status below
  }
  const code = body.details?.[0]?.latchkeyErrorCode;
  const message = typeof body.message === 'string' ? body.message : `public API answered ${res.status}`;
  if (typeof code === 'string' && code in ERROR_TABLE && code !== 'INTERNAL') return new AppError(code as TErrorCode, message, body.details?.[0]?.fields as Record<string, unknown> | undefined);
  if (res.status === 429) return new AppError('RATE_LIMITED', message, { retryAfterSeconds: Number(res.headers.get('retry-after') ?? '1') });
  return new AppError('UNAVAILABLE', `the public API could not serve this request (HTTP ${res.status}); retry later`);
}

export function createPublicApiClient(baseUrl: string) {
  async function post(path: string, body: object, signer: TSigner): Promise<unknown> {
    const raw = Buffer.from(JSON.stringify(body));
    const stamp = Buffer.from(JSON.stringify({ publicKey: signer.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: signP256(signer.privateKeyHex, raw) })).toString('base64url');
    let res: Response;
    try {
      res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-stamp': stamp }, body: raw });
    } catch {
      throw new AppError('UNAVAILABLE', 'the auth proxy cannot reach the public API; retry later');
    }
    if (!res.ok) throw await appErrorOfResponse(res);
    return res.json();
  }

  return {
    /**
     * Submits an activity as the proxy user; answers its result (under `resultKey`).
     * @throws AppError the public API's refusal, or 403 when a policy made the activity wait for approvals
     */
    async submit<T>(path: string, type: string, organizationId: string, parameters: object, resultKey: string, signer: TSigner): Promise<T> {
      const { activity } = (await post(`/public/v1/submit/${path}`, { type, timestampMs: String(Date.now()), organizationId, parameters }, signer)) as { activity: TActivity };
      if (activity.status === 'ACTIVITY_STATUS_COMPLETED') return activity.result[resultKey] as T;
      if (activity.status === 'ACTIVITY_STATUS_CONSENSUS_NEEDED') {
        throw new AppError('REQUEST_NOT_AUTHORIZED', `request not authorized: a policy makes ${type} of the auth proxy user wait for approvals (activity ${activity.id})`, { activityId: activity.id });
      }
      const failure = (activity as { failure?: { message?: string } }).failure;
      throw new AppError('BAD_REQUEST', failure?.message ?? `${type} ended ${activity.status}`, { activityId: activity.id });
    },
    /** A query as the proxy user. */
    async query<T>(path: string, body: object, signer: TSigner): Promise<T> {
      return (await post(`/public/v1/query/${path}`, body, signer)) as T;
    },
  };
}
export type TPublicApiClient = ReturnType<typeof createPublicApiClient>;

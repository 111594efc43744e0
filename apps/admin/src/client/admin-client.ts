/**
 * The typed admin client, shared by the dashboard and the tests: `@trpc/client` over the admin
 * router's type (the contract), every call POSTed (queries included, `methodOverride`) so its
 * input is a body, stamped by `stamp` over exactly the bytes sent. `subscribeLive` opens the
 * activities stream over SSE with the stamp of its input in the connection parameters.
 * Runs in browsers and in Node (no Node-only imports).
 */
import { createTRPCClient, httpLink, httpSubscriptionLink, TRPCClientError } from '@trpc/client';
import type { TAdminRouter } from '../router.js';

/** Signs `body`; returns the header to send (`X-Stamp` or `X-Stamp-Webauthn`) and its value. */
export type TStamp = (body: string) => Promise<{ stampHeaderName: string; stampHeaderValue: string }>;

export interface TAdminClientOptions {
  /** Base URL of the admin app, e.g. `http://127.0.0.1:8082` (no trailing slash), or '' for same-origin. */
  baseUrl: string;
  /** Unset: calls go unstamped (the setup and sign-in preliminaries). */
  stamp?: TStamp;
  fetch?: typeof fetch;
}

export function createAdminClient(o: TAdminClientOptions) {
  const doFetch = o.fetch ?? ((input: string | URL, init?: RequestInit) => fetch(input, init));
  return createTRPCClient<TAdminRouter>({
    links: [
      httpLink({
        url: `${o.baseUrl}/trpc`,
        methodOverride: 'POST',
        fetch: async (url, init) => {
          const headers = new Headers(init?.headers as ConstructorParameters<typeof Headers>[0]);
          if (o.stamp && typeof init?.body === 'string') {
            const s = await o.stamp(init.body);
            headers.set(s.stampHeaderName, s.stampHeaderValue);
          }
          return doFetch(url as string, { ...(init as RequestInit), headers });
        },
      }),
    ],
  });
}
export type TAdminClient = ReturnType<typeof createAdminClient>;

export type TLiveInput = { organizationId: string; filterByStatus?: string[]; filterByUserIds?: string[]; paginationOptions?: { limit?: string } };

/**
 * Streams new and changed activities (`activities.live`); returns a function that stops it.
 * The stamp signs the JSON of `input` exactly as the link puts it in the URL.
 */
export function subscribeLive(
  o: { baseUrl: string; stamp: TStamp; EventSource?: typeof EventSource },
  input: TLiveInput,
  on: { onData: (d: { activities: unknown[] }) => void; onError?: (e: TRPCClientError<TAdminRouter>) => void },
): () => void {
  const client = createTRPCClient<TAdminRouter>({
    links: [
      httpSubscriptionLink({
        url: `${o.baseUrl}/trpc`,
        connectionParams: async () => ({ 'x-stamp': (await o.stamp(JSON.stringify(input))).stampHeaderValue }),
        ...(o.EventSource ? { EventSource: o.EventSource } : {}),
      }),
    ],
  });
  const sub = client.activities.live.subscribe(input as never, {
    onData: (d) => on.onData(d as { activities: unknown[] }),
    onError: (e) => on.onError?.(e as TRPCClientError<TAdminRouter>),
  });
  return () => sub.unsubscribe();
}

/** The Latchkey error code of a failed call (`API_KEY_EXPIRED`, `REQUEST_NOT_AUTHORIZED`…), if any. */
export function errorCodeOf(e: unknown): string | undefined {
  return e instanceof TRPCClientError ? (e.data as { latchkeyCode?: string } | undefined)?.latchkeyCode : undefined;
}
export function httpStatusOf(e: unknown): number | undefined {
  return e instanceof TRPCClientError ? (e.data as { httpStatus?: number } | undefined)?.httpStatus : undefined;
}
export { TRPCClientError };

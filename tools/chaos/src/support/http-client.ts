/**
 * A keep-alive HTTP client for exact bytes: every proof sends thousands of requests, some of them
 * malformed on purpose, and needs the status of each and whether the connection failed (a crashed
 * or restarting process), never an exception.
 */
import http from 'node:http';

export interface TAnswer {
  /** HTTP status, or 0 when no answer arrived (connection refused or reset, timeout). */
  status: number;
  text: string;
  /** The network error when status is 0. */
  error?: string;
}

export interface THttpClient {
  post(path: string, body: Uint8Array | string, headers?: Record<string, string>): Promise<TAnswer>;
  get(path: string): Promise<TAnswer>;
  close(): void;
}

/** @param baseUrl e.g. http://127.0.0.1:41234 */
export function createHttpClient(baseUrl: string, opts: { maxSockets?: number; timeoutMs?: number } = {}): THttpClient {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.maxSockets ?? 64 });
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const request = (method: 'GET' | 'POST', path: string, body?: Uint8Array | string, headers: Record<string, string> = {}) =>
    new Promise<TAnswer>((resolve) => {
      const bytes = body === undefined ? undefined : typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
      const req = http.request(
        {
          hostname: url.hostname,
          port: url.port,
          path,
          method,
          agent,
          timeout: timeoutMs,
          headers: { ...(bytes ? { 'content-type': 'application/json', 'content-length': String(bytes.length) } : {}), ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', (e) => resolve({ status: 0, text: '', error: e.message }));
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
      req.on('error', (e) => resolve({ status: 0, text: '', error: (e as NodeJS.ErrnoException).code ?? e.message }));
      req.end(bytes);
    });
  return {
    post: (path, body, headers) => request('POST', path, body, headers),
    get: (path) => request('GET', path),
    close: () => agent.destroy(),
  };
}

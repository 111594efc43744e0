/**
 * Serves the built dashboard (Vite's output) at `/`: `index.html` for `/` (the dashboard routes in
 * the fragment, so no other HTML path exists), hashed files under `/assets/` cached for a year.
 * Found at $LATCHKEY_ADMIN_DASHBOARD_DIR, else `dashboard/` beside the bundled app
 * (apps/admin/dist/dashboard, which `npm run build` and `npm start` produce). Missing: `/` answers
 * 503 saying how to build it, and tRPC keeps working.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '@latchkey/domain';
import type { FastifyInstance } from 'fastify';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/** Mantine sets inline style attributes; scripts and connections stay same-origin. */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function dashboardDir(env: Record<string, string | undefined> = process.env): string | undefined {
  const candidates = [env['LATCHKEY_ADMIN_DASHBOARD_DIR'], fileURLToPath(new URL('./dashboard/', import.meta.url)), fileURLToPath(new URL('../../dist/dashboard/', import.meta.url))];
  return candidates.find((d): d is string => Boolean(d) && existsSync(join(d!, 'index.html')));
}

export function registerDashboard(app: FastifyInstance, dir: string | undefined): void {
  const root = dir ? resolve(dir) : undefined;
  const headers = { 'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
  app.get('/', async (_req, reply) => {
    if (!root) throw new AppError('UNAVAILABLE', 'the dashboard is not built: run `npm run build` (npm start builds it)');
    return reply.headers({ ...headers, 'content-type': TYPES['.html']!, 'cache-control': 'no-cache' }).send(await readFile(join(root, 'index.html')));
  });
  app.get('/assets/*', async (req, reply) => {
    const rel = (req.params as { '*': string })['*'];
    const file = root ? normalize(join(root, 'assets', rel)) : undefined;
    if (!root || !file || !file.startsWith(join(root, 'assets') + sep) || !existsSync(file)) throw new AppError('NOT_FOUND', `no such asset: ${rel}`);
    return reply
      .headers({ ...headers, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'public, max-age=31536000, immutable' })
      .send(await readFile(file));
  });
}

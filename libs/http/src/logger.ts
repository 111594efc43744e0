/**
 * The one logger configuration of every Latchkey process: pino JSON lines with the service name,
 * and every header or field that could carry a secret or a raw stamp redacted before it is written.
 */
import type { TConfig } from '@latchkey/domain';
import pino, { type Logger } from 'pino';

/** Paths (pino redact syntax) that may hold secrets or raw stamps; they never reach a log line. */
export const REDACTED_LOG_PATHS = [
  'req.headers["x-stamp"]',
  'req.headers["x-stamp-webauthn"]',
  'req.headers["x-stamp-attested"]',
  // A read-only session token (create_read_only_session) is a bearer secret.
  'req.headers["x-session"]',
  'req.headers["x-latchkey-internal"]',
  'req.headers["x-captcha-token"]',
  '*.privateKeyHex',
  '*.sealedProxyPrivateKey',
  'req.headers.authorization',
  'req.headers.cookie',
  '*.privateKey',
  '*.apiPrivateKey',
  '*.mnemonic',
  '*.otpCode',
  '*.masterKey',
  '*.password',
];

export function createLogger(config: Pick<TConfig, 'logLevel'>, service: string): Logger {
  return pino({ level: config.logLevel, base: { service }, redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' } });
}

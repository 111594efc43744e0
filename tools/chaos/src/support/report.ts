/**
 * What every proof hands back, the settings they read from the environment, and the plain-text
 * tables the runner prints.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

export interface TProofResult {
  /** R1, R2, R3, R5. */
  id: string;
  title: string;
  ok: boolean;
  seconds: number;
  /** One line: what was done and what was seen. */
  summary: string;
  /** Each violated expectation, precise enough to reproduce. */
  failures: string[];
}

/** A positive integer from the environment, or the default. @throws Error when set but not one. */
export function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}

/** Prints rows as aligned columns. */
export function printTable(rows: string[][]): void {
  const widths = (rows[0] ?? []).map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join('  ').trimEnd());
}

/** Where failing inputs are written for replay (CHAOS_OUT_DIR, or a folder in the OS tmpdir). */
export function outDir(): string {
  const dir = process.env['CHAOS_OUT_DIR'] || join(os.tmpdir(), 'latchkey-chaos');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Writes a file under outDir() and returns its path. */
export function saveArtifact(name: string, content: string | Uint8Array): string {
  const p = join(outDir(), name);
  writeFileSync(p, content);
  return p;
}

export const log = (msg: string): void => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

/** Seconds since `t0` (a Date.now()), one decimal. */
export const since = (t0: number): number => Number(((Date.now() - t0) / 1000).toFixed(1));

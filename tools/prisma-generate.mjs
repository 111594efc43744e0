#!/usr/bin/env node
// Generates the Prisma client into libs/persistence/src/generated (run by `npm ci` as postinstall).
// Prisma's CLI wants a schema-engine binary even for `generate`, and this machine cannot download
// one; `generate` never runs it, so any existing file satisfies the check.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = existsSync('/bin/false') ? '/bin/false' : process.execPath;
const r = spawnSync('npx', ['--no-install', 'prisma', 'generate'], { stdio: 'inherit', env });
process.exit(r.status ?? 1);

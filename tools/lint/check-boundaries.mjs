#!/usr/bin/env node
// Module boundaries, checked on every project's `lint` target (and so by `npm test`):
//  - apps never import apps; libs never import apps or tools;
//  - each lib imports only the libs below it (domain ← crypto ← persistence ← activity-engine; http on domain);
//  - only libs/persistence imports Prisma (@prisma/*, its generated client);
//  - every @latchkey/* import is declared in the project's package.json (the Nx graph comes from it);
//  - relative imports never leave the project;
//  - tests carry no .only/.skip (every test runs and can fail).
// Checked: <project>/src and <project>/test. Usage: node tools/check-boundaries.mjs <projectDir>   (exit 1 and a list of violations on failure)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Which workspace packages each library may import. Apps and tools may import any library. */
export const LIB_LAYERS = {
  '@latchkey/domain': [],
  '@latchkey/crypto': ['@latchkey/domain'],
  '@latchkey/persistence': ['@latchkey/domain', '@latchkey/crypto'],
  '@latchkey/http': ['@latchkey/domain'],
  '@latchkey/activity-engine': ['@latchkey/domain', '@latchkey/crypto', '@latchkey/persistence'],
};
export const APPS = ['@latchkey/public-api', '@latchkey/auth-proxy', '@latchkey/webhook-worker', '@latchkey/admin'];
const PRISMA = /^(@prisma\/|prisma($|\/))|generated\/prisma/;

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'generated') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* sourceFiles(p);
    else if (/\.(ts|mts|mjs|js)$/.test(name) && !name.endsWith('.d.ts')) yield p;
  }
}

/** Import specifiers of a source text (static, dynamic and re-exports). */
export function importsOf(text) {
  const out = [];
  const re = /(?:^|[\s;])(?:import|export)\s[^'"`]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;(])import\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|[\s;])import\s*['"]([^'"]+)['"]/gm;
  for (const m of text.matchAll(re)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/** Violations of one project, as strings. */
export function checkProject(projectDir) {
  const dir = resolve(projectDir);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const name = pkg.name;
  const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})]);
  const isLib = name in LIB_LAYERS;
  const isApp = APPS.includes(name);
  const problems = [];
  const roots = ['src', 'test'].map((d) => join(dir, d)).filter((d) => existsSync(d));
  for (const file of roots.flatMap((r) => [...sourceFiles(r)])) {
    const rel = relative(ROOT, file);
    const text = readFileSync(file, 'utf8');
    const isTest = /\.spec\.[mc]?[jt]s$/.test(file) || rel.includes(`${sep}test${sep}`);
    if (isTest && /\b(?:it|test|describe)\.(?:only|skip)\s*\(|\bx(?:it|describe)\s*\(/.test(text)) problems.push(`${rel}: .only/.skip left in a test`);
    for (const spec of importsOf(text)) {
      if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec);
        if (!target.startsWith(dir + sep)) problems.push(`${rel}: relative import ${spec} leaves the project`);
        if (PRISMA.test(spec) && name !== '@latchkey/persistence') problems.push(`${rel}: imports Prisma (${spec}); only libs/persistence may`);
        continue;
      }
      if (PRISMA.test(spec) && name !== '@latchkey/persistence') problems.push(`${rel}: imports Prisma (${spec}); only libs/persistence may`);
      const m = /^(@latchkey\/[^/]+)/.exec(spec);
      if (!m) continue;
      const target = m[1];
      if (target === name) {
        problems.push(`${rel}: imports its own package ${spec}; use a relative import`);
        continue;
      }
      if (!declared.has(target)) problems.push(`${rel}: imports ${target}, which package.json does not declare`);
      if (APPS.includes(target)) problems.push(`${rel}: imports the app ${target}; ${isApp ? 'apps never import apps' : 'nothing imports an app'}`);
      if (isLib && !(LIB_LAYERS[name] ?? []).includes(target)) {
        problems.push(`${rel}: ${name} may not import ${target} (allowed: ${(LIB_LAYERS[name] ?? []).join(', ') || 'no workspace package'})`);
      }
    }
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const target = process.argv[2];
  if (!target) {
    console.error('usage: node tools/check-boundaries.mjs <projectDir>');
    process.exit(2);
  }
  const problems = checkProject(target);
  if (problems.length) {
    console.error(`module boundaries violated in ${relative(ROOT, resolve(target)) || '.'}:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
}

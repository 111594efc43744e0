#!/usr/bin/env node
// Module boundaries, checked on every project's `lint` target (and so by `npm test`). Each
// violation is reported as `<file>: [rule] what is wrong (what is allowed)`. The rules:
//  [lib-layers]        each lib imports only the libs below it (LIB_LAYERS); libs never import apps or tools;
//  [app-libs]          apps (and the CLI) import only the libs APP_LIBS gives them;
//  [imports-app]       nothing imports an app (apps never import apps, libs and tools neither);
//  [unknown-project]   every project under libs/ or apps/ has a row in those tables;
//  [import-cycle]      no cycle among a project's own files, type-only imports included;
//  [activity-resource] a folder under libs/activity-engine/src/activities/ imports no other such folder;
//  [unused-dependency] every @latchkey/* dependency in package.json is imported somewhere in src or test;
//  [undeclared]        every @latchkey/* import is declared in package.json (the Nx graph comes from it);
//  [own-package]       a project reaches its own files relatively, not through its package name;
//  [relative-escape]   relative imports never leave the project;
//  [prisma]            only libs/persistence imports Prisma (@prisma/*, its generated client);
//  [focused-test]      tests carry no .only/.skip (every test runs and can fail).
// Checked: <project>/src and <project>/test (test/fixtures excluded: they are inputs of tests).
// Usage: node tools/lint/check-boundaries.mjs <projectDir>   (exit 1 and the list of violations on failure)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const lib = (name) => `@latchkey/${name}`;
const libs = (...names) => names.map(lib);

/**
 * Which workspace packages each library may import: a lib sees only the libs below it, so the
 * layers can never form a cycle between packages. persistence gets only what it uses (crypto, for
 * the webhook signing keys it seals with the vault); platform is the one lib that wires everything.
 */
export const LIB_LAYERS = {
  [lib('domain')]: [],
  [lib('crypto')]: libs('domain'),
  [lib('persistence')]: libs('crypto'),
  [lib('http')]: libs('domain'),
  [lib('policy')]: libs('domain', 'crypto'),
  [lib('delivery')]: libs('domain'),
  [lib('identity-providers')]: libs('domain', 'crypto'),
  [lib('activity-engine')]: libs('domain', 'crypto', 'persistence', 'policy'),
  [lib('platform')]: libs('domain', 'crypto', 'persistence', 'http', 'policy', 'delivery', 'identity-providers', 'activity-engine'),
};
const ALL_LIBS = Object.keys(LIB_LAYERS);

/**
 * Which libs each app (and the CLI, which is one) may import, and why. Other tools (testkit,
 * bench, chaos, lint) may import any lib.
 */
export const APP_LIBS = {
  [lib('public-api')]: { allowed: ALL_LIBS, why: 'it goes through @latchkey/platform' },
  [lib('admin')]: { allowed: ALL_LIBS, why: 'it goes through @latchkey/platform' },
  [lib('cli')]: { allowed: ALL_LIBS, why: 'it goes through @latchkey/platform' },
  [lib('webhook-worker')]: { allowed: libs('persistence', 'crypto', 'http', 'domain', 'delivery'), why: 'it delivers outbox events and runs no activity' },
  [lib('auth-proxy')]: { allowed: libs('http', 'domain', 'crypto'), why: 'the proxy is an HTTP client of the public API' },
};
/** Apps proper: nothing imports them. (@latchkey/cli is governed by APP_LIBS but is a tool.) */
export const APPS = libs('public-api', 'auth-proxy', 'webhook-worker', 'admin');
export const TOOLS = libs('cli', 'testkit', 'bench', 'chaos', 'lint');

/** Where activity kinds live, one folder per resource; shared flows live outside it (src/keys, src/identity…). */
const RESOURCE_ROOTS = { [lib('activity-engine')]: 'src/activities' };

const PRISMA = /^(@prisma\/|prisma($|\/))|generated\/prisma/;
const SOURCE = /\.(ts|mts|cts|mjs|js)$/;

function* sourceFiles(dir) {
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name === 'dist' || name === 'generated') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name === 'fixtures' && dir.endsWith(`${sep}test`)) continue;
      yield* sourceFiles(p);
    } else if (SOURCE.test(name) && !name.endsWith('.d.ts')) yield p;
  }
}

/** Import specifiers of a source text: static (type-only included), dynamic, side-effect and re-exports. */
export function importsOf(text) {
  const out = [];
  const re = /(?:^|[\s;])(?:import|export)\s[^'"`]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;(])import\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|[\s;])import\s*['"]([^'"]+)['"]/gm;
  for (const m of text.matchAll(re)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/** The file a relative specifier names, among `files`: `./x.js` is `./x.ts` (or `./x/index.ts`) in source. */
function resolveRelative(from, spec, files) {
  const target = resolve(dirname(from), spec);
  const base = target.replace(/\.(js|mjs|cjs|ts|mts|cts)$/, '');
  const candidates = [target, `${base}.ts`, `${base}.mts`, `${base}.cts`, `${base}.js`, `${base}.mjs`, join(base, 'index.ts'), join(base, 'index.js')];
  return candidates.find((c) => files.has(c));
}

/** Strongly connected components of a graph (Tarjan), each with more than one node or a self-edge. */
export function cyclicComponents(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const out = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? new Set()).has(v)) out.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

/** One shortest cycle through the component's first node, as [a, b, …, a]. */
function cycleIn(graph, component) {
  const members = new Set(component);
  const start = component[0];
  const parent = new Map();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of [...(graph.get(v) ?? [])].sort()) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u = v; u !== start; u = parent.get(u)) path.splice(1, 0, u);
        return [...path, start];
      }
      if (!parent.has(w)) {
        parent.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

/**
 * Violations of one project, as strings.
 * @param projectDir the project (a directory with package.json)
 * @param root the repository root: names files in messages and says where libs/ and apps/ are
 */
export function checkProject(projectDir, root = ROOT) {
  const dir = resolve(projectDir);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const name = pkg.name;
  const deps = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})];
  const declared = new Set(deps);
  const isLib = name in LIB_LAYERS;
  const isApp = APPS.includes(name);
  const appRule = APP_LIBS[name];
  const problems = [];
  const at = (file) => relative(root, file) || '.';

  const where = relative(root, dir).split(sep)[0];
  if ((where === 'libs' && !isLib) || (where === 'apps' && !appRule)) {
    problems.push(`${at(dir)}: [unknown-project] ${name} has no row in ${where === 'libs' ? 'LIB_LAYERS' : 'APP_LIBS'} (tools/lint/check-boundaries.mjs); add one saying what it may import`);
  }

  const roots = ['src', 'test'].map((d) => join(dir, d)).filter((d) => existsSync(d));
  const files = roots.flatMap((r) => [...sourceFiles(r)]);
  const fileSet = new Set(files);
  const graph = new Map(files.map((f) => [f, new Set()]));
  const used = new Set();
  const resourceRoot = RESOURCE_ROOTS[name] && join(dir, RESOURCE_ROOTS[name]);
  const resourceOf = (file) => {
    if (!resourceRoot || !file.startsWith(resourceRoot + sep)) return undefined;
    const parts = relative(resourceRoot, file).split(sep);
    return parts.length > 1 ? parts[0] : undefined; // files directly in activities/ (the list) belong to none
  };

  for (const file of files) {
    const rel = at(file);
    const text = readFileSync(file, 'utf8');
    const isTest = /\.spec\.[mc]?[jt]s$/.test(file) || file.includes(`${sep}test${sep}`);
    if (isTest && /\b(?:it|test|describe)\.(?:only|skip)\s*\(|\bx(?:it|describe)\s*\(/.test(text)) problems.push(`${rel}: [focused-test] .only/.skip left in a test; every test must run`);
    for (const spec of importsOf(text)) {
      if (PRISMA.test(spec) && name !== lib('persistence')) problems.push(`${rel}: [prisma] imports Prisma (${spec}); only libs/persistence may`);
      if (spec.startsWith('.')) {
        if (!resolve(dirname(file), spec).startsWith(dir + sep)) {
          problems.push(`${rel}: [relative-escape] relative import ${spec} leaves the project; import the other project by its package name`);
          continue;
        }
        const target = resolveRelative(file, spec, fileSet);
        if (!target) continue;
        graph.get(file).add(target);
        const from = resourceOf(file);
        const to = resourceOf(target);
        if (from && to && from !== to) {
          problems.push(`${rel}: [activity-resource] activities/${from} imports ${spec} of activities/${to}; a resource imports only its own folder and shared flows outside activities/ (src/keys, src/identity…)`);
        }
        continue;
      }
      const m = /^(@latchkey\/[^/]+)/.exec(spec);
      if (!m) continue;
      const target = m[1];
      used.add(target);
      if (target === name) {
        problems.push(`${rel}: [own-package] imports its own package ${spec}; use a relative import`);
        continue;
      }
      if (!declared.has(target)) problems.push(`${rel}: [undeclared] imports ${target}, which package.json does not declare`);
      if (APPS.includes(target)) {
        problems.push(`${rel}: [imports-app] imports the app ${target}; ${isApp ? 'apps never import apps' : 'nothing imports an app'} (share the code through a lib)`);
      } else if (isLib && !LIB_LAYERS[name].includes(target)) {
        const allowed = LIB_LAYERS[name].join(', ') || 'no workspace package';
        problems.push(
          TOOLS.includes(target)
            ? `${rel}: [lib-layers] ${name} may not import the tool ${target}: libs never import apps or tools (allowed: ${allowed})`
            : `${rel}: [lib-layers] ${name} may not import ${target} (allowed: ${allowed})`,
        );
      } else if (appRule && target in LIB_LAYERS && !appRule.allowed.includes(target)) {
        problems.push(`${rel}: [app-libs] ${name} may not import ${target}: ${appRule.why} (allowed: ${appRule.allowed.join(', ')})`);
      }
    }
  }

  for (const component of cyclicComponents(graph)) {
    const cycle = cycleIn(graph, component).map(at);
    const more = component.length > cycle.length - 1 ? ` (${component.length} files are tangled: ${component.map(at).join(', ')})` : '';
    problems.push(`${cycle[0]}: [import-cycle] ${cycle.join(' → ')}${more}; type-only imports count too: move what they share into a file that imports none of them`);
  }

  for (const dep of deps) {
    if (dep.startsWith('@latchkey/') && !used.has(dep)) {
      problems.push(`${at(join(dir, 'package.json'))}: [unused-dependency] ${dep} is declared but unused (imported nowhere in src or test); remove it so the Nx graph shows real edges`);
    }
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const target = process.argv[2];
  if (!target) {
    console.error('usage: node tools/lint/check-boundaries.mjs <projectDir>');
    process.exit(2);
  }
  const problems = checkProject(target);
  if (problems.length) {
    console.error(`module boundaries violated in ${relative(ROOT, resolve(target)) || '.'}:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
}

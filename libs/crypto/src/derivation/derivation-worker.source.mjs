// The derivation worker from its TypeScript source, through tsx: for tests. Node 20 does not apply
// `--import tsx` given in a worker's execArgv to the worker's own entry file, so this plain module
// registers tsx first. Production runs the bundled dist/derivation-worker.mjs instead.
import { register } from 'tsx/esm/api';

register();
await import('./derivation-worker.ts');

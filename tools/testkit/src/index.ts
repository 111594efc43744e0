/** @latchkey/testkit — a real Latchkey for end-to-end tests and benchmarks. */
export { startLatchkey, repoRoot, type TLatchkey, type TStartOptions, type TBootstrapJson } from './start-latchkey.js';

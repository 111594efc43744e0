/** Test support for the engine's users: an engine on a fresh database with a root organization. */
export * from './fixture.js';

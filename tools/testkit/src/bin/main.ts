#!/usr/bin/env node
/** Entry point of the `latchkey` bin (bin/latchkey.ts has the logic, testable without exiting). */
import { main } from './latchkey.js';

process.exit(await main(process.argv.slice(2)));

#!/usr/bin/env node
// Entry point: TypeScript sources run through tsx's loader, so `npm start` needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));

import { shareBuiltTables, type SharedTables } from '../inspect/shared-tables.js';

/**
 * Run once in a short-lived thread (shared-tables-build.ts): builds the lexicons' automata by loading their modules,
 * then returns them on shared memory for the inspection threads. The build's garbage (tries, maps) dies with the thread.
 */
export default async function buildTables(): Promise<SharedTables> {
  await import('../inspect/segments/lexicon.js');
  await import('../inspect/concepts/lexicon.js');
  return shareBuiltTables();
}

import { workerData } from 'node:worker_threads';

/**
 * Large read-only lookup tables (the lexicons' compiled automata) built once per process and shared by every
 * inspection thread, instead of one copy per thread (~26 MB each).
 *
 * A table is an instance whose own fields are typed arrays, numbers and small clonable values (a Map), never written
 * after its constructor. In a thread started with `workerData.tables` (src/workers/pool.ts, built by
 * src/workers/shared-tables-build.ts), `sharedTable` revives the named instance from those fields: its typed arrays
 * sit on SharedArrayBuffers, so every thread reads the same memory. Anywhere else (the builder thread, tests, eval
 * scripts, a pool started without them) it builds the table itself and remembers it, so the builder can hand it out.
 */

/** An instance's own fields, typed arrays moved onto SharedArrayBuffers (structured clone shares, never copies, them). */
export type SharedTable = Record<string, unknown>;
export type SharedTables = Record<string, SharedTable>;

const given = (workerData as { tables?: SharedTables } | null | undefined)?.tables;
const built = new Map<string, object>();

export function sharedTable<T extends object>(name: string, type: { prototype: T }, build: () => T): T {
  const fields = given?.[name];
  if (fields) return Object.assign(Object.create(type.prototype) as T, fields);
  const table = build();
  built.set(name, table);
  return table;
}

/** The tables this thread built, in the form another thread revives (the typed arrays copied into shared memory). */
export function shareBuiltTables(): SharedTables {
  const out: SharedTables = {};
  for (const [name, table] of built) {
    const fields: SharedTable = {};
    for (const [key, value] of Object.entries(table)) fields[key] = ArrayBuffer.isView(value) && !(value instanceof DataView) ? onShared(value as TypedArray) : value;
    out[name] = fields;
  }
  return out;
}

type TypedArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

function onShared(array: TypedArray): TypedArray {
  const Type = array.constructor as { new (buffer: SharedArrayBuffer): TypedArray; BYTES_PER_ELEMENT: number };
  const copy = new Type(new SharedArrayBuffer(array.length * Type.BYTES_PER_ELEMENT));
  copy.set(array);
  return copy;
}

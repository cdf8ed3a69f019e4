/**
 * A module (or anything else costly) loaded on first use and kept: `lazily` wraps a function that imports it, and
 * `await load()` where it is needed gives the module. Heavy dependencies a gateway may never use (the MCP SDK,
 * sanitize-html, qrcode, macaroon, x402) are loaded this way, so that a gateway which never serves MCP, the site or
 * payments never holds them in memory; the first request that needs one waits for the import. A failed load is not
 * kept: the next call tries again.
 */
export function lazily<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= load().catch((err: unknown) => {
      pending = undefined;
      throw err;
    }));
}

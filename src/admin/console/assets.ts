import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, extname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** One static file of the console, held in memory with its content-hashed URL and precompressed forms. */
export interface Asset {
  /** Module specifier or logical name, e.g. `preact`, `app/keys.js`, `console.css`. */
  name: string;
  /** `/console/assets/<stem>.<hash>.<ext>`: the hash changes with the bytes, so the file can be cached for a year. */
  url: string;
  type: string;
  body: Buffer;
  readonly br: Buffer;
  readonly gzip: Buffer;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const require = createRequire(import.meta.url);
const SOURCE = fileURLToPath(new URL('../../console/', import.meta.url));

/**
 * The libraries the browser loads, from the installed packages (no CDN, no build step). The keys are the bare
 * specifiers of the import map, so the console's modules import `preact` exactly as they would with a bundler.
 */
const VENDOR: Record<string, string> = {
  preact: 'preact/dist/preact.mjs',
  'preact/hooks': 'preact/hooks/dist/hooks.mjs',
  htm: 'htm/dist/htm.mjs',
  uplot: 'uplot/dist/uPlot.esm.js',
  'uplot.css': 'uplot/dist/uPlot.min.css',
};

/** A file inside an installed package, whatever the package's `exports` allow to be imported. */
function packageFile(spec: string): string {
  const pkg = spec.split('/')[0];
  const main = require.resolve(pkg);
  const marker = `${sep}node_modules${sep}${pkg}${sep}`;
  return join(main.slice(0, main.lastIndexOf(marker) + marker.length), spec.slice(pkg.length + 1));
}

function asset(name: string, file: string): Asset {
  const body = readFileSync(file);
  const ext = extname(file);
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 12).replace(/[-_]/g, 'x');
  const stem = basename(file, ext).replace(/[^A-Za-z0-9-]/g, '-');
  let br: Buffer | undefined;
  let gzip: Buffer | undefined;
  return {
    name,
    url: `/console/assets/${stem}.${hash}${ext}`,
    type: TYPES[ext] ?? 'application/octet-stream',
    body,
    // Compressed once, on the first request that asks for the form, at the highest levels: the files never change
    // while the process runs, and a process that never serves the console (a sidecar, a test) never pays for it.
    get br() {
      return (br ??= brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
    },
    get gzip() {
      return (gzip ??= gzipSync(body, { level: 9 }));
    },
  };
}

let loaded: Asset[] | undefined;

/**
 * Every console asset: the vendored libraries and the files of src/console (app modules as `app/<file>`). Read and
 * each form compressed on first use (the highest compression levels cost ~0.5 s for all), however many listeners serve them.
 */
export function loadAssets(): Asset[] {
  loaded ??= readAssets();
  return loaded;
}

function readAssets(): Asset[] {
  const vendor = Object.entries(VENDOR).map(([name, path]) => asset(name, packageFile(path)));
  const own = readdirSync(SOURCE)
    .filter((f) => TYPES[extname(f)] !== undefined)
    .sort()
    .map((f) => asset(extname(f) === '.js' ? `app/${f}` : f, join(SOURCE, f)));
  return [...vendor, ...own];
}

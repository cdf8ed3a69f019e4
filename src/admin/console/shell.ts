import { createHash } from 'node:crypto';
import type { Asset } from './assets.js';

/** The console's one HTML page, split around the per-request CSRF token; the rest never changes while the process runs. */
export interface Shell {
  /** The page with `{{csrf}}` to fill in. */
  render(csrfToken: string): string;
  /** CSP source allowing exactly the inline import map, and nothing else inline. */
  importMapHash: string;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Builds the page: an import map from bare specifiers (`preact`, `app/keys.js`) to content-hashed URLs, preloads for
 * every module (one round trip instead of a waterfall of imports), the stylesheets and the entry module. The import map
 * is the only inline script; the CSP allows it by its SHA-256, so the page needs no nonce and no `unsafe-inline`.
 */
export function buildShell(assets: Asset[]): Shell {
  const modules = assets.filter((a) => a.type.startsWith('text/javascript'));
  const styles = assets.filter((a) => a.type.startsWith('text/css'));
  const importMap = JSON.stringify({ imports: Object.fromEntries(modules.map((a) => [a.name, a.url])) });
  const entry = modules.find((a) => a.name === 'app/main.js');
  if (!entry) throw new Error('console: src/console/main.js is missing');
  const head = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    '<meta name="csrf-token" content="',
  ].join('\n');
  const tail = [
    '">',
    '<title>Bastion console</title>',
    ...assets.filter((a) => a.name === 'favicon.svg').map((a) => `<link rel="icon" type="image/svg+xml" href="${a.url}">`),
    ...styles.map((a) => `<link rel="stylesheet" href="${a.url}">`),
    `<script type="importmap">${importMap}</script>`,
    // uPlot is preloaded too: the dashboard is the first page after login and the largest module.
    ...modules.map((a) => `<link rel="modulepreload" href="${a.url}">`),
    `<script type="module" src="${entry.url}"></script>`,
    '</head>',
    '<body>',
    '<div id="app"><main id="main"><h1>Bastion console</h1><p>Loading…</p><noscript><p>The console needs JavaScript. The JSON API under /portal works without it.</p></noscript></main></div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
  return {
    render: (csrfToken) => head + escape(csrfToken) + tail,
    importMapHash: `'sha256-${createHash('sha256').update(importMap).digest('base64')}'`,
  };
}

import { posix } from 'node:path';

/**
 * Links written for the repository (relative to the Markdown file, e.g. `docs/DEPLOYMENT.md` or `../Dockerfile`)
 * rewritten for the page that serves the file. `served` maps repository paths to the paths that serve them.
 * Returns the new href, or undefined when the target is a repository file the site does not serve: the caller
 * shows the link's text without a link rather than a link that 404s.
 */
/**
 * An absolute URL that names no real place a reader could open: a placeholder host (`NAME`, `<host>`, example and
 * test domains) or the reader's own machine (loopback, where the gateway's plain-HTTP ports are). Shown as text.
 */
export function isPlaceholderUrl(href: string): boolean {
  const m = /^https?:\/\/([^/:?#]*)/i.exec(href);
  if (!m) return false;
  const host = m[1];
  if (host === '' || /[A-Z<>{}$]/.test(host)) return true;
  if (/^(localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1\])$/i.test(host)) return true;
  return /(^|\.)(example|test|invalid|internal|localhost)$/i.test(host) || /(^|\.)example\.(com|org|net)$/i.test(host);
}

export function siteHref(href: string, sourceFile: string, served: ReadonlyMap<string, string>): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) return href; // https:, mailto: … (the sanitiser decides)
  if (href.startsWith('#') || href.startsWith('/')) return href;
  const hashAt = href.indexOf('#');
  const path = hashAt === -1 ? href : href.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : href.slice(hashAt);
  const resolved = posix.normalize(posix.join(posix.dirname(sourceFile), decodeURI(path))).replace(/\/$/, '');
  const target = served.get(resolved);
  return target === undefined ? undefined : target + fragment;
}

import { posix } from 'node:path';

/**
 * Links written for the repository (relative to the Markdown file, e.g. `docs/DEPLOYMENT.md` or `../Dockerfile`)
 * rewritten for the page that serves the file. `served` maps repository paths to the paths that serve them.
 * Returns the new href, or undefined when the target is a repository file the site does not serve: the caller
 * shows the link's text without a link rather than a link that 404s.
 */
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

import config from '../../../config/tool-effects.json' with { type: 'json' };

/**
 * Path normalisation and classification. Every home spelling (`~`, `$HOME`, `${HOME}`, `/root`, `/home/<user>`,
 * `/Users/<user>`, `%USERPROFILE%`) becomes `~`; `.`/`..` and repeated slashes are resolved; comparison is
 * case-insensitive (macOS and Windows paths are). Globs from config/tool-effects.json compile to anchored regexes
 * whose only repetition is `[^/]*` or `.*` over a path bounded by `MAX_PATH`: linear enough on attacker input.
 */

const MAX_PATH = 1024;

export type PathClass =
  | 'root'
  | 'home'
  | 'system'
  | 'systemTree'
  | 'device'
  | 'persistence'
  | 'privilegeConfig'
  | 'preload'
  | 'credentials'
  | 'secretFiles'
  | 'logs'
  | 'securityConfig'
  | 'caStore';

const HOME_PREFIX = /^(?:\$\{?home\}?|%userprofile%|~[a-z0-9_.-]{0,32}|\/root|\/home\/[^/]{1,64}|\/users\/[^/]{1,64})(?=\/|$)/;

export function normalizePath(raw: string): string {
  let p = raw.slice(0, MAX_PATH).trim().toLowerCase().replace(/\\/g, '/');
  if (p.startsWith('file://')) p = p.slice(7);
  // `/home/*` and `/users/*` name every home at once; keep them recognisable before the home prefix folds.
  if (p === '/home/*' || p === '/users/*') return '/home';
  p = p.replace(HOME_PREFIX, '~');
  const absolute = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '~') out.pop();
      continue;
    }
    out.push(part);
  }
  const joined = out.join('/');
  // A relative path climbing this far out of any working directory reaches the root.
  if (!absolute && escapes(p) >= ESCAPE_TO_ROOT) return `/${joined}`;
  return absolute ? `/${joined}` : joined || '.';
}

const ESCAPE_TO_ROOT = 6;

/** How many levels a relative path climbs above its starting directory. */
function escapes(p: string): number {
  let level = 0;
  let lowest = 0;
  for (const part of p.split('/')) {
    if (part === '..') lowest = Math.min(lowest, --level);
    else if (part !== '' && part !== '.') level++;
  }
  return -lowest;
}

/** `/etc/*`, `/etc/.*`, `/etc/**` name everything in `/etc`: for destruction they are `/etc`. */
function stripAllGlob(p: string): string {
  const m = /^(.*?)\/(?:\*|\.\*|\*\*|\*\.\*|\{\*,\.\*\}|\.\[!.\]\*)$/.exec(p);
  if (!m) return p;
  return m[1] === '' ? '/' : m[1];
}

const literal = (xs: readonly string[]): ReadonlySet<string> => new Set(xs.map((x) => normalizePath(x)));
const ROOT = new Set(['/']);
const HOME = literal(['~', '/home', '/users']);
// `/root` folds into `~`: it is judged as a home, not as a system directory.
const SYSTEM = new Set([...literal(config.paths.systemDirs)].filter((p) => p !== '~'));

function globToRegex(globs: readonly string[]): RegExp {
  const parts = globs.map((g) => {
    const norm = g.startsWith('**/') ? g : normalizePath(g);
    let out = '';
    for (let i = 0; i < norm.length; i++) {
      const c = norm[i];
      if (c === '*' && norm[i + 1] === '*') {
        const slash = norm[i + 2] === '/';
        out += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else if (c === '*') out += '[^/]*';
      else out += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    }
    return out;
  });
  return new RegExp(`^(?:${parts.join('|')})$`);
}

/** Anything under a top-level system directory (for secure deletion, where any file there is a loss). */
const SYSTEM_TREE = new RegExp(`^(?:${[...SYSTEM].filter((d) => d.split('/').length === 2 && d !== '/dev').map((d) => d.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})/`);

const GLOBS: [PathClass, RegExp][] = [
  ['device', globToRegex(config.paths.devices)],
  ['persistence', globToRegex(config.paths.persistence)],
  ['privilegeConfig', globToRegex(config.paths.privilegeConfig)],
  ['preload', globToRegex(config.paths.preload)],
  ['credentials', globToRegex(config.paths.credentials)],
  ['secretFiles', globToRegex(config.paths.secretFiles)],
  ['logs', globToRegex(config.paths.logs)],
  ['securityConfig', globToRegex(config.paths.securityConfig)],
  ['caStore', globToRegex(config.paths.caStore)],
];

/** Every class the path belongs to (a path can be both `system` and `logs`, e.g. `/var/log`). */
export function classifyPath(raw: string): Set<PathClass> {
  const classes = new Set<PathClass>();
  if (raw.length === 0) return classes;
  const p = normalizePath(raw);
  const whole = stripAllGlob(p);
  if (ROOT.has(whole)) classes.add('root');
  if (HOME.has(whole)) classes.add('home');
  if (SYSTEM.has(whole)) classes.add('system');
  if (SYSTEM_TREE.test(p) && !p.startsWith('/dev/null')) classes.add('systemTree');
  for (const [name, re] of GLOBS) if (re.test(p)) classes.add(name);
  // A public key is meant to be shared: `.pub` files are not credentials.
  if (p.endsWith('.pub')) classes.delete('credentials');
  return classes;
}

/** A word that could be a path argument (not an option, not a URL). */
export function isPathLike(word: string): boolean {
  if (word.length === 0 || word.length > MAX_PATH) return false;
  const c = word[0];
  if (c === '-' || word.includes('://')) return false;
  return c === '/' || c === '~' || c === '.' || c === '$' || c === '%' || /^[a-z]:[\\/]/i.test(word) || word.includes('/') || /^\.?[\w.-]+$/.test(word);
}

import { domainToUnicode } from 'node:url';
import config from '../../../config/phishing.json' with { type: 'json' };
import { brandByLabel, isBrandDomain, isGenericLabel, matchToken } from './brands.js';
import type { UrlInfo } from './host.js';
import { GENERIC_SUBDOMAINS, HOST_LURE, PATH_LURE, isDigitMixed, looksRandom, riskyTldWeight } from './lexical.js';

/**
 * Generator-independent features of one URL for the phishing model: what a phishing URL has to do
 * whoever built it (name a brand it does not own, hide the real host, live on throwaway hosting,
 * lead to a credential step) rather than the shape of one generator's output. Every value is in
 * [0, 1]; the order is FEATURE_NAMES and is stored with the model so a stale model cannot be misread.
 * Left out on purpose: plain `http:` (old documentation links use it; the dev generator's benign URLs
 * never did, so a model would learn the generator) and IP hosts: no source has benign public-IP links, so
 * the weight would say "IP = phishing"; the named rules of score.ts judge IP hosts by their path instead.
 */

export const FEATURE_NAMES = [
  'brand_exact_elsewhere',
  'brand_lookalike',
  'brand_generic_word',
  'brand_in_subdomain',
  'brand_in_path',
  'brand_owned',
  'punycode',
  'mixed_script',
  'userinfo',
  'port',
  'risky_tld',
  'long_tld',
  'cc_tld',
  'hosted',
  'shortener',
  'ipfs',
  'subdomain_depth',
  'host_length',
  'hyphens',
  'digits_in_host',
  'random_label',
  'digit_mixed_label',
  'host_lure_words',
  'path_lure_words',
  'path_depth',
  'path_length',
  'script_extension',
  'query_length',
  'email_in_url',
  'opaque_path_token',
  'domain_in_path',
  'tilde_or_double_slash',
  'glued_lure_words',
  'owner_length',
  'host_tokens',
] as const;

const SHORTENERS = new Set(config.shorteners);
/** Lure words long enough to be recognised glued inside a label (`connectwalletfix`, `secureupdateinfo`). */
const GLUABLE = [...HOST_LURE].filter((w) => w.length >= 5);
const TOKEN = /[a-z0-9]+/g;
const EMAIL = /[a-z0-9._%+-]{1,64}(?:@|%40)[a-z0-9-]{1,63}\.[a-z]{2,}/i;
const DOMAIN_IN_PATH = /(?:^|[/=.])[a-z0-9-]{2,63}\.(?:com|net|org|co|io|jp)(?:[/.?&#]|$)/i;

const cap = (value: number, max: number): number => Math.min(1, value / max);

function tokensOf(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

function brandSignals(info: UrlInfo, owned: boolean): { exact: number; lookalike: number; generic: number; subdomain: number } {
  const out = { exact: 0, lookalike: 0, generic: 0, subdomain: 0 };
  if (owned || info.isIp) return out;
  const labels = [...info.subdomains, info.ownerLabel];
  for (const [i, label] of labels.entries()) {
    const inSub = i < labels.length - 1;
    if (inSub && GENERIC_SUBDOMAINS.has(label)) continue;
    const parts = label.split('-').filter(Boolean);
    for (const token of parts.length > 1 ? [...parts, parts.join('')] : parts) {
      const m = matchToken(token);
      if (!m) continue;
      if (m.generic) out.generic = 1;
      else if (m.kind === 'exact') out.exact = 1;
      else out.lookalike = 1;
      if (inSub) out.subdomain = 1;
    }
  }
  return out;
}

function scripts(info: UrlInfo): { punycode: number; mixed: number } {
  let punycode = 0;
  let mixed = 0;
  for (const label of [...info.subdomains, info.ownerLabel]) {
    if (!label.startsWith('xn--')) continue;
    punycode = 1;
    const unicode = domainToUnicode(`${label}.example`);
    if (/[a-z]/.test(unicode) && /[^\x00-\x7f]/.test(unicode.replace(/\.example$/, ''))) mixed = 1;
  }
  return { punycode, mixed };
}

export function urlFeatures(info: UrlInfo): number[] {
  const host = info.hostname.replace(/^www\d?\./, '');
  const owned = !info.isIp && isBrandDomain(info.hostname);
  const brand = brandSignals(info, owned);
  const { punycode, mixed } = scripts(info);
  const q = info.pathQuery.indexOf('?');
  const path = q < 0 ? info.pathQuery : info.pathQuery.slice(0, q);
  const query = q < 0 ? '' : info.pathQuery.slice(q + 1);
  const pathTokens = tokensOf(info.pathQuery);
  const namedLabels = [...info.ownerLabel.split('-'), ...info.subdomains.filter((l) => !GENERIC_SUBDOMAINS.has(l))].filter(Boolean);
  const hostTokens = info.isIp ? [] : tokensOf([...info.subdomains, info.ownerLabel].join('.'));
  const segments = path.split('/').filter(Boolean);
  const tld = info.tld;
  return [
    brand.exact,
    brand.lookalike,
    brand.generic,
    brand.subdomain,
    !owned && pathTokens.some((t) => t.length >= 4 && brandByLabel(t) && !isGenericLabel(t)) ? 1 : 0,
    owned ? 1 : 0,
    punycode,
    mixed,
    info.username ? 1 : 0,
    info.port && info.port !== '80' && info.port !== '443' ? 1 : 0,
    info.hosted ? 0 : cap(riskyTldWeight(tld), 0.4),
    !info.isIp && tld.length >= 5 && !owned ? 1 : 0,
    !info.isIp && tld.length === 2 ? 1 : 0,
    info.hosted ? 1 : 0,
    SHORTENERS.has(host) ? 1 : 0,
    /(?:^|[./])ipfs[./]|\/ipfs\/|\/ipns\//.test(`${info.hostname}${path}`) ? 1 : 0,
    cap(info.subdomains.filter((l) => !GENERIC_SUBDOMAINS.has(l)).length, 4),
    info.isIp ? 0 : cap(host.length, 40),
    cap(info.ownerLabel.split('-').length - 1, 4),
    info.isIp ? 0 : cap((host.match(/\d/g) ?? []).length, 6),
    !info.hosted && namedLabels.some((t) => looksRandom(t)) ? 1 : 0,
    namedLabels.some((t) => isDigitMixed(t)) ? 1 : 0,
    cap(hostTokens.filter((t) => HOST_LURE.has(t)).length, 2),
    cap(pathTokens.filter((t) => PATH_LURE.has(t)).length, 3),
    cap(segments.length, 6),
    cap(path.length, 80),
    /\.(?:php|html?|aspx?|jsp|cgi)$/i.test(path) ? 1 : 0,
    cap(query.length, 80),
    EMAIL.test(info.pathQuery) ? 1 : 0,
    segments.some((s) => s.length >= 16 && /[a-z]/i.test(s) && /\d/.test(s) && !s.includes('-')) ? 1 : 0,
    DOMAIN_IN_PATH.test(path) ? 1 : 0,
    /~|\/\//.test(path) ? 1 : 0,
    owned ? 0 : cap(hostTokens.reduce((n, t) => n + (HOST_LURE.has(t) ? 0 : GLUABLE.filter((w) => t.includes(w)).length), 0), 2),
    info.isIp ? 0 : cap(info.ownerLabel.length, 24),
    info.isIp ? 0 : cap(hostTokens.length, 6),
  ];
}

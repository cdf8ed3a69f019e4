import { domainToUnicode } from 'node:url';
import { parse as parseDomain } from 'tldts';
import config from '../../../config/phishing.json' with { type: 'json' };
import { fold } from '../decode/normalize.js';
import { brandByLabel, isBrandDomain, isGenericLabel, matchToken, type BrandMatch } from './brands.js';
import type { UrlInfo } from './host.js';
import {
  GENERIC_SUBDOMAINS,
  HOST_FILLER,
  HOST_LURE,
  TLD_LABELS,
  hasCredentialPath,
  isDigitMixed,
  isRestrictedSuffix,
  looksRandom,
  riskyTldWeight,
} from './lexical.js';

/**
 * Scores one parsed link. Strong rules name a specific trick (brand look-alike, userinfo,
 * homoglyph, brand-as-subdomain, IP host with a brand path) and score on their own; weak
 * signals (risky TLD, credential path, generated-looking labels, hosting, ports) add up
 * and can reach HIGH only together. The message around the link is never consulted here.
 */

export interface UrlVerdict {
  score: number;
  reason: string;
}

const S = config.scores;
const W = config.weights;
const SHORTENERS = new Set(config.shorteners);
const NONE: UrlVerdict = { score: 0, reason: 'none' };

function best(a: UrlVerdict, b: UrlVerdict): UrlVerdict {
  return b.score > a.score ? b : a;
}

interface HostContext {
  info: UrlInfo;
  risky: number;
  credentialPath: boolean;
}

/** Another token that makes a brand token look staged: a lure or filler word, a number or a generated string. */
function stagingToken(tokens: readonly string[], skip: string): boolean {
  return tokens.some((t) => t !== skip && t.length > 0 && (HOST_LURE.has(t) || HOST_FILLER.has(t) || /\d/.test(t) || looksRandom(t)));
}

function judgeBrand(m: BrandMatch, token: string, tokens: readonly string[], h: HostContext, inSubdomain: boolean): UrlVerdict {
  const { info } = h;
  const staged = stagingToken(tokens, token);
  const supported = h.risky > 0 || info.hosted || staged || tokens[0] === 'www';
  const name = `${m.kind} look-alike of ${m.brand.name}`;
  switch (m.kind) {
    case 'exact':
      if (tokens.length === 1) {
        if (inSubdomain) return NONE;
        if (info.hosted) return info.verifiedNamespace ? NONE : { score: S.brandHostedWhole, reason: `${m.brand.name} as a hosted site name` };
        return h.risky > 0 ? { score: S.brandRiskyTld, reason: `${m.brand.name} on a high-abuse TLD` } : NONE;
      }
      // Org pages on identity-checked namespaces (`binance-docs.github.io`) need a lure word too.
      if (info.verifiedNamespace && !tokens.some((t) => HOST_LURE.has(t))) return { score: S.brandOtherToken, reason: `${m.brand.name} project page` };
      if (info.hosted) return { score: S.brandHosted, reason: `${m.brand.name} on a free hosting platform` };
      if (tokens[0] === 'www') return { score: S.brandWwwDash, reason: `www-${m.label} dash trick` };
      if (staged) {
        const weak = m.generic && h.risky === 0 && !h.credentialPath;
        return { score: weak ? S.brandLureGeneric : S.brandLure, reason: `${m.brand.name} with lure words` };
      }
      if (h.risky > 0) return { score: S.brandLure, reason: `${m.brand.name} inside another domain` };
      return { score: h.credentialPath ? S.brandOtherTokenCredential : S.brandOtherToken, reason: `${m.brand.name} inside another domain` };
    case 'numbered':
      return { score: m.generic && !supported ? S.typoShort : S.brandNumbered, reason: name };
    case 'leet':
      return { score: S.brandLeet, reason: name };
    case 'embedded': {
      if ((m.label.length <= 3 || m.generic) && !supported) return NONE;
      const letters = m.remainder.replace(/\d/g, '');
      const short = letters.length <= 2 || (letters.length <= 4 && /\d/.test(m.remainder)) || HOST_LURE.has(letters) || HOST_FILLER.has(letters);
      if (short) return { score: S.brandEmbeddedShort, reason: name };
      return { score: supported ? S.typoSupported : S.brandEmbeddedOther, reason: name };
    }
    case 'typo': {
      if (supported || h.credentialPath) return { score: S.typoSupported, reason: name };
      // Alone, only the classic squats (added, dropped, doubled or swapped letters) of a long
      // name score high: a one-letter substitution is as often another real name (mizuno/mizuho).
      const substitution = token.length === m.label.length && [...token].sort().join('') !== [...m.label].sort().join('');
      return { score: m.label.length >= 6 && !substitution ? S.typoAlone : S.typoShort, reason: name };
    }
  }
}

function brandInLabels(h: HostContext): UrlVerdict {
  const { info } = h;
  let verdict = NONE;
  const ownerTokens = info.ownerLabel.split('-').filter(Boolean);
  const labels = [...info.subdomains.map((l) => ({ label: l, sub: true })), { label: info.ownerLabel, sub: false }];
  for (const [i, { label, sub }] of labels.entries()) {
    if (sub && GENERIC_SUBDOMAINS.has(label)) continue;
    const tokens = label.split('-').filter(Boolean);
    if (sub && brandByLabel(label)) {
      const next = labels[i + 1]?.label ?? '';
      if (TLD_LABELS.has(next)) return { score: S.brandDotTldInSubdomain, reason: `${label}.${next} used as a subdomain` };
      // `meta.`, `line.`, `zoom.` are ordinary subdomain words: only the brand.tld pattern counts for them.
      if (isGenericLabel(label)) continue;
      const supported = h.risky > 0 || info.hosted || stagingToken(ownerTokens, '');
      verdict = best(verdict, { score: supported ? S.brandSubdomainSupported : S.brandSubdomain, reason: `${label} as a subdomain of another domain` });
      continue;
    }
    let matched = false;
    for (const token of tokens) {
      const m = matchToken(token);
      if (m) verdict = best(verdict, judgeBrand(m, token, tokens, h, sub));
      matched ||= m !== undefined;
    }
    // `bank-of-america`: a brand spelled across hyphens.
    if (!matched && tokens.length > 1) {
      const joined = tokens.join('');
      const m = matchToken(joined);
      if (m && m.kind !== 'embedded') verdict = best(verdict, judgeBrand(m, joined, [joined], h, sub));
    }
  }
  return verdict;
}

/** Punycode labels whose Unicode skeleton is a brand, or that mix Latin with another script. */
function homoglyphs(info: UrlInfo): UrlVerdict {
  let verdict = NONE;
  for (const label of [...info.subdomains, info.ownerLabel]) {
    if (!label.startsWith('xn--')) continue;
    const unicode = domainToUnicode(`${label}.example`).slice(0, -'.example'.length);
    const skeleton = fold(unicode.normalize('NFKD').replace(/\p{M}/gu, '')).text.toLowerCase();
    for (const token of skeleton.split('-')) {
      const m = /^[a-z0-9]+$/.test(token) ? matchToken(token) : undefined;
      if (m && m.kind !== 'typo') return { score: S.homoglyphBrand, reason: `homoglyph of ${m.brand.name}` };
      if (m && token.length >= 5) return { score: S.homoglyphBrand, reason: `homoglyph of ${m.brand.name}` };
    }
    // Latin mixed with Cyrillic/Greek/Armenian/Cherokee look-alikes; müller or café are not mixed.
    const latin = /[a-z\u00c0-\u024f]/.test(unicode);
    const other = /[\u0370-\u058f\u13a0-\u13ff]/.test(unicode);
    if (latin && other) verdict = best(verdict, { score: S.mixedScriptLabel, reason: 'mixed-script domain label' });
    else verdict = best(verdict, { score: S.punycodeOther, reason: 'internationalised domain' });
  }
  return verdict;
}

function ipHost(info: UrlInfo, credentialPath: boolean): UrlVerdict {
  const segments = info.pathQuery.toLowerCase().split(/[/?#&=.]+/);
  // Dictionary-word brands (`meta`, `line`) are ordinary path words unless long (`discord`, `steam`).
  const brand = segments.find((s) => s.length >= 2 && brandByLabel(s) && (!isGenericLabel(s) || s.length >= 5));
  if (brand) {
    const score = isGenericLabel(brand) ? S.ipCredentialPath : S.ipBrandPath;
    return { score, reason: `IP host with ${brandByLabel(brand)?.name} in the path` };
  }
  if (credentialPath) {
    return info.isPrivateIp ? { score: S.ipPrivateCredentialPath, reason: 'private IP host with a credential path' } : { score: S.ipCredentialPath, reason: 'IP host with a credential path' };
  }
  return info.isPrivateIp ? { score: S.ipPrivate, reason: 'private IP host' } : { score: S.ipPublic, reason: 'IP host' };
}

function weakSignals(h: HostContext): UrlVerdict {
  const { info } = h;
  const reasons: string[] = [];
  let sum = 0;
  const add = (weight: number, reason: string): void => {
    sum += weight;
    reasons.push(reason);
  };
  if (h.risky > 0) add(h.risky, `.${info.tld} TLD`);
  if (h.credentialPath) add(W.credentialPath, 'credential path');
  const ownerTokens = info.ownerLabel.split('-');
  const namedLabels = [...ownerTokens, ...info.subdomains.filter((l) => !GENERIC_SUBDOMAINS.has(l))];
  // Hosting platforms generate labels themselves (CloudFront, S3): randomness says nothing there.
  if (!info.hosted && namedLabels.some((t) => looksRandom(t))) {
    add(h.risky > 0 ? W.randomLabel : W.randomLabelPlain, 'generated-looking label');
  } else if (!info.hosted && namedLabels.some((t) => isDigitMixed(t))) add(W.digitMixedLabel, 'letters mixed with digits');
  if (ownerTokens.length > 1 && ownerTokens.some((t) => HOST_LURE.has(t))) add(W.hostLureWord, 'lure word in domain');
  if ([info.ownerLabel, ...info.subdomains].some((l) => l.startsWith('www-'))) add(W.wwwDash, 'www- dash prefix');
  if (h.risky > 0 && info.subdomains.some((l) => !GENERIC_SUBDOMAINS.has(l))) add(W.unknownSubdomainOnRisky, 'unusual subdomain');
  if (info.port && info.port !== '80' && info.port !== '443') add(W.nonStandardPort, 'non-standard port');
  if ((info.ownerLabel.match(/-/g)?.length ?? 0) >= 3) add(W.manyHyphens, 'many hyphens');
  if (info.subdomains.length >= 4) add(W.deepSubdomains, 'deep subdomains');
  if (info.hosted) add(W.freeHosting, 'free hosting');
  if (info.scheme === 'http') add(W.httpOnly, 'no TLS');
  const pathBrand = info.pathQuery.toLowerCase().split(/[/?#&=.]+/).some((s) => s.length >= 4 && brandByLabel(s) && !isGenericLabel(s));
  if (pathBrand) add(W.brandInPath, 'brand name in path');
  return { score: Math.min(W.weakCap, sum), reason: reasons.join(', ') };
}

/**
 * `https://paypal.com@evil.example/` shows a trusted name where the browser ignores it.
 * A user name (`jane.smith@git.example`) or `user:secret@host` is not a disguise: the
 * latter is a credential in a URL, the secrets layer's business.
 */
function userinfo(info: UrlInfo): UrlVerdict {
  if (!info.username) return NONE;
  const asDomain = parseDomain(info.username.toLowerCase());
  const named =
    (asDomain.isIcann === true && asDomain.domain !== null) ||
    info.username.split(/[^a-z0-9]+/i).some((t) => matchToken(t.toLowerCase())?.kind === 'exact');
  if (named) return { score: S.userinfoDomain, reason: 'userinfo disguised as a domain' };
  return info.password ? NONE : { score: S.userinfoPlain, reason: 'userinfo in link' };
}

export function scoreUrl(info: UrlInfo): UrlVerdict {
  const credentialPath = hasCredentialPath(info.pathQuery);
  let verdict = userinfo(info);
  if (info.isIp) return best(verdict, ipHost(info, credentialPath));
  if (isBrandDomain(info.hostname) || !info.hostname.includes('.')) return NONE;
  if (SHORTENERS.has(info.hostname) || SHORTENERS.has(info.hostname.replace(/^www\./, ''))) {
    return best(verdict, { score: W.shortener, reason: 'URL shortener' });
  }
  const h: HostContext = { info, risky: info.hosted ? 0 : riskyTldWeight(info.tld), credentialPath };
  verdict = best(verdict, homoglyphs(info));
  let strong = brandInLabels(h);
  if (isRestrictedSuffix(info.suffix)) strong = { ...strong, score: strong.score * S.restrictedSuffixFactor };
  verdict = best(verdict, strong);
  const weak = weakSignals(h);
  if (verdict.score >= 0.75 && weak.score >= 0.3) return { score: Math.min(0.99, verdict.score + W.extraSignalBoost), reason: verdict.reason };
  return best(verdict, weak);
}

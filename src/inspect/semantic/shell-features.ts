import indicatorConfig from '../../../config/command-indicators.json' with { type: 'json' };
import { combine, fnv1a, fnvStep, FNV_SEED, mix } from './hashing.js';
import { AhoCorasick } from './aho-corasick.js';
import type { FeatureSink } from './feature-sink.js';

/**
 * Command-aware features for `tool_call` content (a shell command an agent wants to run). The command is split
 * into pipeline segments; for each segment we emit the command name (after wrappers such as `sudo`, `env`,
 * `nohup`), its flags (`chmod +s`, `nc -e`, `history -c`), its first sub-commands (`launchctl load`,
 * `defaults write`), paths and their directory prefixes (`/etc/shadow` → `/etc/`), redirection targets, pipes
 * between commands (`curl>sh`) and variable assignments (`HISTFILE=`, `LD_PRELOAD=`). The curated indicators of
 * config/command-indicators.json add one named feature each. Linear: one scan plus bounded regexes.
 */

export interface Indicator {
  id: string;
  leaf: string;
  flagScore?: number;
  /** Literal substrings, one of which any match contains: the regex only runs when one is present. */
  anchors: readonly string[];
  regex: RegExp;
  hash: number;
}

const NS = {
  cmd: 0x11,
  pipe: 0x12,
  flag: 0x13,
  sub: 0x14,
  path: 0x15,
  dir: 0x16,
  base: 0x17,
  redirect: 0x18,
  assign: 0x19,
  variable: 0x1a,
  url: 0x1b,
  sudo: 0x1c,
  arg: 0x1d,
} as const;

const built = indicatorConfig.indicators.map((i) => ({
  id: i.id,
  leaf: i.leaf,
  ...('flagScore' in i && typeof i.flagScore === 'number' ? { flagScore: i.flagScore } : {}),
  anchors: i.anchors,
  regex: new RegExp(i.pattern, 'i'),
  hash: fnv1a(`ind:${i.id}`),
}));
export const INDICATORS: readonly Indicator[] = built;

// One Aho–Corasick pass finds which anchors occur; an indicator's regex runs only if one of its anchors did.
const ANCHORS = [...new Set(built.flatMap((i) => i.anchors))];
const ANCHOR_ID = new Map(ANCHORS.map((a, i) => [a, i]));
const ANCHOR_IDS: readonly number[][] = built.map((i) => i.anchors.map((a) => ANCHOR_ID.get(a) ?? 0));
const MATCHER = new AhoCorasick(ANCHORS);
const seenAnchors = new Uint8Array(ANCHORS.length);

function forEachIndicator(lower: string, visit: (indicator: Indicator) => void): void {
  seenAnchors.fill(0);
  MATCHER.scan(lower, seenAnchors);
  for (let k = 0; k < INDICATORS.length; k++) {
    const ids = ANCHOR_IDS[k];
    let any = false;
    for (let j = 0; j < ids.length && !any; j++) any = seenAnchors[ids[j]] === 1;
    if (any && INDICATORS[k].regex.test(lower)) visit(INDICATORS[k]);
  }
}

const WRAPPERS = new Set(['sudo', 'doas', 'nohup', 'env', 'exec', 'time', 'nice', 'command', 'builtin', 'then', 'do', 'else', 'elif', 'if', 'while', 'until', '!', 'xargs', 'stdbuf', 'setsid']);
const MAX_TOKEN = 64;
/** An indicator counts as this many (distinct) features: one decisive construct must not drown in a long command. */
const INDICATOR_WEIGHT = 3;
const MAX_ARGS = 12;

function feature(ns: number, value: string): number {
  return combine(ns, fnv1a(value));
}

const SPACE_SEED_CACHE = new Map<string, number>();
/** Hash of `${prefix} ${value}` without building the string (FNV-1a is a running state). */
function pairFeature(ns: number, prefix: string, value: string): number {
  let seed = SPACE_SEED_CACHE.get(prefix);
  if (seed === undefined) {
    seed = fnv1a(' ', fnv1a(prefix));
    if (SPACE_SEED_CACHE.size < 4096) SPACE_SEED_CACHE.set(prefix, seed);
  }
  return combine(ns, fnv1a(value, seed));
}

function isSeparator(c: number): boolean {
  // newline ; | & ( ) ` { }
  return c === 10 || c === 59 || c === 124 || c === 38 || c === 40 || c === 41 || c === 96 || c === 123 || c === 125;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 34 || c === 39 || c === 92; // quotes and backslash split tokens too
}

function basename(token: string): string {
  const slash = token.lastIndexOf('/');
  return slash >= 0 && slash < token.length - 1 ? token.slice(slash + 1) : token;
}

const DIGITS = /[0-9]+/g;
const HAS_DIGIT = /[0-9]/;

function foldDigits(s: string): string {
  return HAS_DIGIT.test(s) ? s.replace(DIGITS, '0') : s;
}

/** Indicators whose regex matches `lower`, after the anchor prefilter. */
export function indicatorsIn(lower: string): Indicator[] {
  const out: Indicator[] = [];
  forEachIndicator(lower, (i) => out.push(i));
  return out;
}

function emitPath(token: string, sink: FeatureSink, ns: number): void {
  const folded = foldDigits(token);
  sink.push(feature(ns, folded));
  // Directory prefixes (/etc/, /etc/ssh/ ...) from the running FNV state: no substring is built.
  let depth = 0;
  let h = fnvStep(FNV_SEED, folded.charCodeAt(0));
  for (let i = 1; i < folded.length && depth < 4; i++) {
    const c = folded.charCodeAt(i);
    h = fnvStep(h, c);
    if (c === 47) {
      sink.push(combine(NS.dir, h >>> 0));
      depth++;
    }
  }
  sink.push(feature(NS.base, basename(folded)));
}

function looksLikePath(token: string): boolean {
  const c = token.charCodeAt(0);
  return c === 47 || c === 126 || (c === 36 && token.includes('/')) || (c === 46 && token.includes('/'));
}

function emitSegment(tokens: string[], pipedFrom: string, sink: FeatureSink): string {
  let i = 0;
  let sudo = false;
  while (i < tokens.length) {
    const t = tokens[i];
    const eq = t.indexOf('=');
    if (WRAPPERS.has(t)) {
      if (t === 'sudo' || t === 'doas') sudo = true;
      i++;
    } else if (eq > 0 && /^[a-z_][a-z0-9_]*$/.test(t.slice(0, eq))) {
      sink.push(feature(NS.assign, t.slice(0, eq)));
      i++;
    } else if (t.charCodeAt(0) === 45 && i > 0) {
      i++; // wrapper option such as `sudo -u root`
    } else break;
  }
  if (i >= tokens.length) return '';
  const cmd = foldDigits(basename(tokens[i]));
  sink.push(feature(NS.cmd, cmd));
  if (sudo) sink.push(feature(NS.sudo, cmd));
  if (pipedFrom) sink.push(pairFeature(NS.pipe, pipedFrom, cmd));
  let bare = 0;
  let redirectNext = false;
  const end = Math.min(tokens.length, i + 1 + MAX_ARGS);
  for (let j = i + 1; j < end; j++) {
    const t = tokens[j];
    if (t === '>' || t === '>>' || t === '<') {
      redirectNext = t !== '<';
      continue;
    }
    const c = t.charCodeAt(0);
    if (redirectNext) {
      redirectNext = false;
      emitPath(t, sink, NS.redirect);
    } else if (c === 45 || c === 43) {
      sink.push(pairFeature(NS.flag, cmd, foldDigits(t)));
    } else if (t.startsWith('http://') || t.startsWith('https://') || t.startsWith('ftp://')) {
      const host = t.slice(t.indexOf('//') + 2).split('/')[0];
      sink.push(feature(NS.url, /^[0-9.:]+$/.test(host) ? 'ip-host' : 'named-host'));
      const dot = t.lastIndexOf('.');
      if (dot > t.length - 6) sink.push(feature(NS.url, `ext${t.slice(dot)}`));
    } else if (looksLikePath(t)) {
      emitPath(t, sink, NS.path);
    } else if (c === 36) {
      sink.push(feature(NS.variable, t.replace(/[{}]/g, '')));
    } else if (bare < 2 && t.length <= 32) {
      sink.push(pairFeature(NS.sub, cmd, foldDigits(t)));
      bare++;
    }
    if (t.length <= 32) sink.push(feature(NS.arg, foldDigits(t)));
  }
  return cmd;
}

/** `lower` must already be lower-cased. Matching curated indicators are appended to `matched` when given. */
export function shellFeatures(lower: string, sink: FeatureSink, matched?: Indicator[]): void {
  const n = lower.length;
  let tokens: string[] = [];
  let tokenStart = -1;
  let pipedFrom = '';
  let nextPiped = false;
  const flushToken = (end: number): void => {
    if (tokenStart >= 0) {
      if (end - tokenStart <= MAX_TOKEN) tokens.push(lower.slice(tokenStart, end));
      tokenStart = -1;
    }
  };
  const flushSegment = (): void => {
    const cmd = tokens.length > 0 ? emitSegment(tokens, nextPiped ? pipedFrom : '', sink) : '';
    if (cmd) pipedFrom = cmd;
    tokens = [];
  };
  for (let i = 0; i < n; i++) {
    const c = lower.charCodeAt(i);
    if (c === 35 && tokenStart < 0 && (i === 0 || isBlank(lower.charCodeAt(i - 1)) || isSeparator(lower.charCodeAt(i - 1)))) {
      // A comment runs to the end of the line.
      const nl = lower.indexOf('\n', i);
      i = nl < 0 ? n : nl - 1;
      continue;
    }
    if (isSeparator(c)) {
      flushToken(i);
      flushSegment();
      const pipe = c === 124 && lower.charCodeAt(i + 1) !== 124 && lower.charCodeAt(i - 1) !== 124;
      nextPiped = pipe;
      continue;
    }
    if (c === 62 || c === 60) {
      flushToken(i);
      const double = lower.charCodeAt(i + 1) === 62;
      tokens.push(c === 60 ? '<' : double ? '>>' : '>');
      if (double) i++;
      continue;
    }
    if (isBlank(c)) {
      flushToken(i);
      continue;
    }
    if (tokenStart < 0) tokenStart = i;
  }
  flushToken(n);
  flushSegment();
  forEachIndicator(lower, (indicator) => {
    for (let k = 0; k < INDICATOR_WEIGHT; k++) sink.push(mix(indicator.hash + k));
    matched?.push(indicator);
  });
}

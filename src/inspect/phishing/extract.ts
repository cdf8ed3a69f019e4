import type { Span } from '../types.js';

/**
 * Links in plain text, Markdown and HTML. Every pattern is bounded; hosts may be Unicode
 * (homoglyph domains are written that way) but stop at CJK text and punctuation, paths are
 * printable ASCII. Trailing sentence punctuation and unbalanced closing brackets are trimmed.
 */

/** `image`: anything a renderer fetches by itself (Markdown/HTML images, iframes, media, CSS `url()`); `link`: needs a click. */
export type LinkContext = 'text' | 'bare' | 'image' | 'link';

export interface Link {
  url: string;
  span: Span;
  context: LinkContext;
  /** Visible text of a Markdown/HTML link, when it differs from the URL. */
  label?: string;
}

const HOST_CHARS = String.raw`[^\s/?#<>"'\`\\\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]`;
const URL_PATTERN = String.raw`https?:\/\/${HOST_CHARS}{1,253}(?:[/?#][\x21-\x7e]{0,4000})?`;
const SCHEME_URL = new RegExp(String.raw`(?<![A-Za-z0-9+.-])${URL_PATTERN}`, 'gi');
const WWW_URL = /(?<![\w.@/:-])www\.[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,8}(?:[/?#][\x21-\x7e]{0,4000})?/gi;
/** A host name without scheme (`paypal-login.example/verify`); the layer keeps only strong verdicts on these. */
const BARE_DOMAIN = /(?<![\w.@/:%-])(?:[a-z0-9][a-z0-9-]{0,62}\.){1,6}[a-z]{2,24}(?![\w-]|\.\w|\()(?:\/[\x21-\x7e]{0,4000})?/iy;
const MAX_BARE = 64;
/** A label's last character, a dot and two letters: every BARE_DOMAIN match has one (its last dot). */
const BARE_HINT = /[a-z0-9-]\.[a-z]{2}/gi;

/** Characters of a host name's labels and dots: a bare domain's host part is one run of them. */
function isHostChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x2e;
}

/**
 * The next BARE_DOMAIN match at or after `from`, exactly the one a global search from `from` would find. Tried at every
 * word start, the pattern cost more than the rest of the link search; here it is tried once per run of host characters
 * that holds a hint, at the run's start: a match's host part is one run of host characters holding its hint, and only
 * the run's first character can pass the lookbehind (every host character is in its class).
 */
function nextBareDomain(text: string, from: number): RegExpExecArray | null {
  for (;;) {
    BARE_HINT.lastIndex = from;
    const hint = BARE_HINT.exec(text);
    if (!hint) return null;
    let start = hint.index;
    while (start > 0 && isHostChar(text.charCodeAt(start - 1))) start--;
    let end = hint.index + 1;
    while (end < text.length && isHostChar(text.charCodeAt(end))) end++;
    // A run begun before `from` continues the previous match: nothing in it can start a new one.
    if (start >= from) {
      BARE_DOMAIN.lastIndex = start;
      const m = BARE_DOMAIN.exec(text);
      if (m) return m;
    }
    from = end;
  }
}
// Label and attribute classes exclude their own opening character, so a failed attempt
// stops at the next `[` or `<` instead of rescanning: linear even on `[[[[...`.
const MD_IMAGE = /!\[[^[\]\n]{0,256}\]\(\s{0,4}<?([^\s)>]{1,4096})/g;
const HTML_IMAGE = /<(?:img|iframe|frame|embed|video|audio|source|track|script|object|input)\b[^<>]{0,512}?\b(?:src|data|poster)\s{0,4}=\s{0,4}["']?([^"'\s<>]{1,4096})/gi;
const CSS_URL = /\burl\(\s{0,4}["']?(https?:\/\/[^"'()\s]{1,4096})/gi;
const HTML_HREF = /<a\b[^<>]{0,512}?\bhref\s{0,4}=\s{0,4}["']?(https?:\/\/[^"'\s<>]{1,4096})/gi;
/** Reference-style Markdown: `[id]: https://…` defines, `![alt][id]`, `![id][]` or `![id]` renders it as an image. */
const REF_DEFINITION = /^[ \t]{0,3}\[([^[\]\n]{1,256})\]:[ \t]{0,8}<?(https?:\/\/[^\s>]{1,4096})/gim;
const REF_IMAGE = /!\[([^[\]\n]{0,256})\](?:\[([^[\]\n]{0,256})\])?/g;
const MD_LINK = /(?<!!)\[([^[\]\n]{1,256})\]\(\s{0,4}<?(https?:\/\/[^\s)>]{1,4096})/gi;
const HTML_LINK = /<a\b[^<>]{0,512}?\bhref\s{0,4}=\s{0,4}["']?(https?:\/\/[^"'\s<>]{1,4096})["']?[^<>]{0,512}>([^<]{1,256})<\/a>/gi;

const TRAILING = new Set(['.', ',', ';', ':', '!', '?', "'", '"', '*', '_', '`']);
const OPENS: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };

/** Drops trailing punctuation and closing brackets that have no opener inside the URL. */
export function trimUrl(url: string): string {
  const balance: Record<string, number> = { ')': 0, ']': 0, '}': 0, '>': 0 };
  for (const ch of url) {
    if (ch in balance) balance[ch]--;
    else if (ch === '(' || ch === '[' || ch === '{' || ch === '<') balance[OPENS[ch]]++;
  }
  let end = url.length;
  while (end > 0) {
    const last = url[end - 1];
    if (TRAILING.has(last)) end--;
    else if (last in balance && balance[last] < 0) {
      balance[last]++;
      end--;
    } else break;
  }
  return url.slice(0, end);
}

const refLabel = (label: string): string => label.trim().replace(/\s+/g, ' ').toLowerCase();

/** Reference definitions, as images when an image reference names them, otherwise as links. */
function referenceLinks(text: string, push: (link: Link) => void, room: () => boolean): void {
  if (!text.includes(']:')) return;
  const definitions: Array<{ label: string; url: string; start: number }> = [];
  REF_DEFINITION.lastIndex = 0;
  for (let m = REF_DEFINITION.exec(text); m !== null && definitions.length < MAX_BARE; m = REF_DEFINITION.exec(text)) {
    definitions.push({ label: refLabel(m[1]), url: trimUrl(m[2]), start: m.index + m[0].length - m[2].length });
  }
  if (definitions.length === 0) return;
  const images = new Set<string>();
  REF_IMAGE.lastIndex = 0;
  for (let m = REF_IMAGE.exec(text); m !== null && images.size < MAX_BARE; m = REF_IMAGE.exec(text)) {
    images.add(refLabel(m[2] ? m[2] : m[1]));
  }
  for (const d of definitions) {
    if (!room()) return;
    push({ url: d.url, span: { start: d.start, end: d.start + d.url.length }, context: images.has(d.label) ? 'image' : 'link' });
  }
}

export function findLinks(text: string, max: number): Link[] {
  const links: Link[] = [];
  const push = (link: Link): void => {
    if (links.length < max) links.push(link);
  };
  for (const [re, prefix] of [
    [SCHEME_URL, ''],
    [WWW_URL, 'http://'],
  ] as const) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null && links.length < max; m = re.exec(text)) {
      // `[![badge](https://img)](https://link)`: the image URL ends where the next Markdown target begins.
      const nested = m[0].indexOf('](');
      const url = trimUrl(nested > 0 ? m[0].slice(0, nested) : m[0]);
      push({ url: prefix + url, span: { start: m.index, end: m.index + url.length }, context: 'text' });
    }
  }
  let bare = 0;
  for (let m = nextBareDomain(text, 0); m !== null && bare < MAX_BARE && links.length < max; m = nextBareDomain(text, m.index + m[0].length)) {
    if (m[0].toLowerCase().startsWith('www.')) continue;
    const url = trimUrl(m[0]);
    bare++;
    push({ url: `http://${url}`, span: { start: m.index, end: m.index + url.length }, context: 'bare' });
  }
  for (const re of [MD_IMAGE, HTML_IMAGE, CSS_URL]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null && links.length < max; m = re.exec(text)) {
      const start = m.index + m[0].length - m[1].length;
      push({ url: m[1], span: { start, end: start + m[1].length }, context: 'image' });
    }
  }
  MD_LINK.lastIndex = 0;
  for (let m = MD_LINK.exec(text); m !== null && links.length < max; m = MD_LINK.exec(text)) {
    const start = m.index + m[0].length - m[2].length;
    push({ url: trimUrl(m[2]), span: { start, end: start + m[2].length }, context: 'link', label: m[1] });
  }
  HTML_LINK.lastIndex = 0;
  for (let m = HTML_LINK.exec(text); m !== null && links.length < max; m = HTML_LINK.exec(text)) {
    const start = m.index + m[0].indexOf(m[1]);
    push({ url: m[1], span: { start, end: start + m[1].length }, context: 'link', label: m[2] });
  }
  HTML_HREF.lastIndex = 0;
  for (let m = HTML_HREF.exec(text); m !== null && links.length < max; m = HTML_HREF.exec(text)) {
    const start = m.index + m[0].length - m[1].length;
    push({ url: m[1], span: { start, end: start + m[1].length }, context: 'link' });
  }
  referenceLinks(text, push, () => links.length < max);
  return links;
}

const DANGEROUS_LINK =
  /(?:\]\(\s{0,4}<?|\b(?:href|src|action|formaction|xlink:href)\s{0,4}=\s{0,4}["']?\s{0,4})((?:javascript|vbscript):|data:(?:text\/html|application\/x?html|image\/svg\+xml)[;,])/gi;
const DANGEROUS_BARE = /(?<![\w-])(?:javascript|vbscript):[^\s]{6,200}/gi;
/** In every match of both patterns: text without it (nearly all) skips them. */
const DANGEROUS_HINT = /script:|data:/i;

export interface DangerousUri {
  span: Span;
  inLink: boolean;
}

/** `javascript:`/`vbscript:` and HTML/SVG `data:` URIs, in a link target or bare. */
export function findDangerousUris(text: string): DangerousUri | undefined {
  if (!DANGEROUS_HINT.test(text)) return undefined;
  DANGEROUS_LINK.lastIndex = 0;
  const link = DANGEROUS_LINK.exec(text);
  if (link) {
    const start = link.index + link[0].length - link[1].length;
    return { span: { start, end: start + link[1].length }, inLink: true };
  }
  DANGEROUS_BARE.lastIndex = 0;
  const bare = DANGEROUS_BARE.exec(text);
  return bare ? { span: { start: bare.index, end: bare.index + bare[0].length }, inLink: false } : undefined;
}

const FENCE = /(?:^|\n)[ \t]{0,3}(`{3,}|~{3,})[^\n]{0,256}\n[\s\S]*?(?:\n[ \t]{0,3}\1|$)/g;
const INLINE_CODE = /`[^`\n]{1,2048}`/g;
const MAX_CODE_RANGES = 256;

/**
 * Fenced blocks and inline code: a renderer shows a URL there as text, never loads or links it,
 * so a request template in a code sample (`?key=${API_KEY}`) is documentation, not a leak.
 */
export function codeRanges(text: string): Span[] {
  if (!text.includes('`') && !text.includes('~~~')) return [];
  const ranges: Span[] = [];
  for (const re of [FENCE, INLINE_CODE]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null && ranges.length < MAX_CODE_RANGES; m = re.exec(text)) {
      ranges.push({ start: m.index, end: m.index + m[0].length });
    }
  }
  return ranges;
}

export function insideCode(span: Span, ranges: readonly Span[]): boolean {
  return ranges.some((r) => r.start <= span.start && r.end >= span.end);
}

import type { Span } from '../types.js';

/**
 * Links in plain text, Markdown and HTML. Every pattern is bounded; hosts may be Unicode
 * (homoglyph domains are written that way) but stop at CJK text and punctuation, paths are
 * printable ASCII. Trailing sentence punctuation and unbalanced closing brackets are trimmed.
 */

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
const BARE_DOMAIN = /(?<![\w.@/:%-])(?:[a-z0-9][a-z0-9-]{0,62}\.){1,6}[a-z]{2,24}(?![\w-]|\.\w|\()(?:\/[\x21-\x7e]{0,4000})?/gi;
const MAX_BARE = 64;
// Label and attribute classes exclude their own opening character, so a failed attempt
// stops at the next `[` or `<` instead of rescanning: linear even on `[[[[...`.
const MD_IMAGE = /!\[[^[\]\n]{0,256}\]\(\s{0,4}<?([^\s)>]{1,4096})/g;
const HTML_IMAGE = /<img\b[^<>]{0,512}?\bsrc\s{0,4}=\s{0,4}["']?([^"'\s<>]{1,4096})/gi;
const MD_LINK = /(?<!!)\[([^[\]\n]{1,256})\]\(\s{0,4}<?(https?:\/\/[^\s)>]{1,4096})/gi;
const HTML_LINK = /<a\b[^<>]{0,512}?\bhref\s{0,4}=\s{0,4}["']?(https?:\/\/[^"'\s<>]{1,4096})["']?[^<>]{0,512}>([^<]{1,256})<\/a>/gi;

const TRAILING = new Set(['.', ',', ';', ':', '!', '?', "'", '"', '*', '_']);
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
      const url = trimUrl(m[0]);
      push({ url: prefix + url, span: { start: m.index, end: m.index + url.length }, context: 'text' });
    }
  }
  BARE_DOMAIN.lastIndex = 0;
  let bare = 0;
  for (let m = BARE_DOMAIN.exec(text); m !== null && bare < MAX_BARE && links.length < max; m = BARE_DOMAIN.exec(text)) {
    if (m[0].toLowerCase().startsWith('www.')) continue;
    const url = trimUrl(m[0]);
    bare++;
    push({ url: `http://${url}`, span: { start: m.index, end: m.index + url.length }, context: 'bare' });
  }
  for (const re of [MD_IMAGE, HTML_IMAGE]) {
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
  return links;
}

const DANGEROUS_LINK =
  /(?:\]\(\s{0,4}<?|\b(?:href|src|action|formaction|xlink:href)\s{0,4}=\s{0,4}["']?\s{0,4})((?:javascript|vbscript):|data:(?:text\/html|application\/x?html|image\/svg\+xml)[;,])/gi;
const DANGEROUS_BARE = /(?<![\w-])(?:javascript|vbscript):[^\s]{6,200}/gi;

export interface DangerousUri {
  span: Span;
  inLink: boolean;
}

/** `javascript:`/`vbscript:` and HTML/SVG `data:` URIs, in a link target or bare. */
export function findDangerousUris(text: string): DangerousUri | undefined {
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

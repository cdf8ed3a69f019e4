import { createHash } from 'node:crypto';
import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import type { SitePage } from './pages.js';

/** A page in both representations, each with its strong ETag. */
export interface RenderedPage {
  markdown: { body: string; etag: string };
  html: { body: string; etag: string };
}

// A private Marked instance: no global options shared with anything else.
const marked = new Marked({ gfm: true, async: false });

// marked passes raw HTML through (a <script> in a Markdown file stays): everything goes through the sanitizer.
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'del', 'input'],
  allowedAttributes: { a: ['href', 'title'], img: ['src', 'alt', 'title'], code: ['class'], th: ['align'], td: ['align'], input: ['type', 'checked', 'disabled'] },
  allowedSchemes: ['https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
};

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

const NAV = '<nav><a href="/">Bastion</a> · <a href="/docs">Docs</a> · <a href="/pricing">Pricing</a> · <a href="/security">Security</a></nav>';

export function renderPage(page: SitePage): RenderedPage {
  const content = sanitizeHtml(marked.parse(page.markdown) as string, SANITIZE);
  // No script, no inline style, no external resource: the page works under `default-src 'none'`.
  const html = `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escape(page.title)}</title>\n</head>\n<body>\n${NAV}\n<main>\n${content}</main>\n</body>\n</html>\n`;
  return {
    markdown: { body: page.markdown, etag: etagOf(page.markdown) },
    html: { body: html, etag: etagOf(html) },
  };
}

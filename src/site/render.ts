import { createHash } from 'node:crypto';
import { Marked, type Tokens } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { isPlaceholderUrl, siteHref } from './links.js';
import type { SitePage } from './pages.js';
import { slugger } from './slug.js';

/** A page in both representations, each with its strong ETag. */
export interface RenderedPage {
  markdown: { body: string; etag: string };
  html: { body: string; etag: string };
}

// marked passes raw HTML through (a <script> in a Markdown file stays): everything goes through the sanitizer.
const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'del', 'input'],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title'],
    code: ['class'],
    th: ['align'],
    td: ['align'],
    input: ['type', 'checked', 'disabled'],
    ...Object.fromEntries(HEADINGS.map((h) => [h, ['id']])),
  },
  allowedSchemes: ['https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
};

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

const NAV =
  '<header><nav><a class="brand" href="/">Bastion</a> <a href="/docs">Docs</a> <a href="/pricing">Pricing</a> <a href="/security">Security</a> <a href="/console/">Console</a></nav></header>';

/**
 * One page as Markdown and HTML. Headings get GitHub's ids; relative links written for the repository are rewritten
 * to the paths serving their targets (`served`), and a link to a file the site does not serve becomes its text.
 */
export function renderPage(page: SitePage, served: ReadonlyMap<string, string> = new Map()): RenderedPage {
  const slug = slugger();
  // A private Marked instance per page: the slugger and the source file are this page's own.
  const marked = new Marked({ gfm: true, async: false });
  marked.use({
    renderer: {
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Heading) {
        return `<h${token.depth} id="${escape(slug(token.text))}">${this.parser.parseInline(token.tokens)}</h${token.depth}>\n`;
      },
      link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Link) {
        const text = this.parser.parseInline(token.tokens);
        // A placeholder (`https://NAME.openai.azure.com`, the gateway on 127.0.0.1) is text to read, never a link.
        if (isPlaceholderUrl(token.href)) return token.text === token.href ? `<code>${escape(token.href)}</code>` : text;
        const href = page.source ? siteHref(token.href, page.source, served) : token.href;
        if (href === undefined) return text;
        return `<a href="${escape(href)}"${token.title ? ` title="${escape(token.title)}"` : ''}>${text}</a>`;
      },
      image(token: Tokens.Image) {
        const src = page.source ? siteHref(token.href, page.source, served) : token.href;
        if (src === undefined) return escape(token.text);
        return `<img src="${escape(src)}" alt="${escape(token.text)}"${token.title ? ` title="${escape(token.title)}"` : ''}>`;
      },
    },
  });
  const content = sanitizeHtml(marked.parse(page.markdown) as string, SANITIZE);
  // No script, no inline style, no external resource: the page works under `default-src 'none'` plus `style-src 'self'`.
  const html = `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escape(page.title)}</title>\n<link rel="stylesheet" href="/site.css">\n</head>\n<body>\n${NAV}\n<main>\n${content}</main>\n</body>\n</html>\n`;
  return {
    markdown: { body: page.markdown, etag: etagOf(page.markdown) },
    html: { body: html, etag: etagOf(html) },
  };
}

import config from '../../../config/phishing.json' with { type: 'json' };

/**
 * Markdown/HTML image exfiltration: an image the client renders automatically, whose URL
 * carries data out in its query or path (`![x](https://host/p?q=<base64 of the chat>)`),
 * or still holds the template an injected instruction asked the model to fill
 * (`{secret}`, `$DATA`, `[CONVERSATION]`). Known image CDNs with signed URLs are exempt.
 */

export type ExfilKind = 'opaque_data' | 'placeholder';

const OPAQUE = /^[A-Za-z0-9+/=_.%-]+$/;
const PLACEHOLDER = /\{\{?[^{}\s]{1,64}\}\}?|\$\{[^{}\s]{1,64}\}|%7B[^%\s]{1,64}%7D|\[[A-Z_]{3,32}\]|<[A-Za-z_]{3,32}>|\$[A-Z][A-Z_]{2,31}\b/;
const EXEMPT = config.exfil.exemptImageHosts;

function decodedPath(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A long value that is data, not words: base64-like (upper, lower and digits), a hex run,
 * or heavily percent-encoded. Long lower-case slugs (`how-to-bake-bread-...`) are not data.
 */
function isOpaque(raw: string): boolean {
  if (raw.length < config.exfil.minOpaqueValue || !OPAQUE.test(raw)) return false;
  const escapes = raw.match(/%[0-9A-Fa-f]{2}/g)?.length ?? 0;
  if (escapes >= config.exfil.minEncodedEscapes) return true;
  return (/[A-Z]/.test(raw) && /[a-z]/.test(raw) && /\d/.test(raw)) || /^[0-9a-fA-F]+$/.test(raw);
}

function exempt(hostname: string): boolean {
  return EXEMPT.some((h) => hostname === h || hostname.endsWith(`.${h}`));
}

export function imageExfiltration(raw: string): ExfilKind | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return PLACEHOLDER.test(raw) && /^https?:/i.test(raw) ? 'placeholder' : undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (PLACEHOLDER.test(decodedPath(url.pathname + url.search))) return 'placeholder';
  if (exempt(url.hostname.toLowerCase())) return undefined;
  const values = url.search.slice(1).split('&').map((p) => p.slice(p.indexOf('=') + 1));
  values.push(...url.pathname.split('/'));
  return values.some(isOpaque) ? 'opaque_data' : undefined;
}

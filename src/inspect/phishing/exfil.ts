import config from '../../../config/phishing.json' with { type: 'json' };
import { isPlaceholderValue } from '../secrets/placeholders.js';
import { isBrandDomain } from './brands.js';
import type { UrlInfo } from './host.js';

/**
 * Exfiltration URLs: a link whose URL carries data to a host that can log it. The data is what the
 * URL holds beyond an address: a template an injected instruction asked the model to fill
 * (`{secret}`, `$DATA`, `[CONVERSATION]`), query keys that name credentials (`secret=…&password=…`),
 * base64/hex runs and percent-encoded payloads in the query or the path, or any query value sent
 * to a bare IP. Short ordinary parameters (`?page=2`, `?utm_source=newsletter`, `?v=4`) are not
 * data. Whether the URL auto-loads (an image) or needs a click (a link) is the caller's concern.
 */

export type ExfilEvidence = 'placeholder' | 'credential_params' | 'encoded_payload' | 'query_data';

const E = config.exfil;
const OPAQUE = /^[A-Za-z0-9+/=_.%~-]+$/;
/** A slot named like a variable (`{conversation_summary}`, `{{user.email}}`, `[SECRET]`, `<data>`); JSON (`{type:'bar'}`) is not one. */
const PLACEHOLDER = /(?<!\$)\{\{?[A-Za-z_][\w.-]{0,63}\}\}?|%7B(?:%7B)?[A-Za-z_][\w.-]{0,63}%7D|\[[A-Z_]{3,32}\]|%5B[A-Z_]{3,32}%5D|<[A-Za-z_]{3,32}>|%3C[A-Za-z_]{3,32}%3E/;
/** Shell and JavaScript variables: a slot in an image URL, but in a link usually a script's own request. */
const VARIABLE = /\$\{[A-Za-z_][\w.]{0,63}\}|%24%7B[A-Za-z_][\w.]{0,63}%7D|\$[A-Z][A-Z_]{2,31}\b|%24[A-Z][A-Z_]{2,31}\b/;
const CREDENTIAL_KEYS = new Set(E.credentialKeys);
const BENIGN_KEYS = new Set(E.benignKeys);
const EXEMPT = E.exemptImageHosts;
const MAX_PARAMS = 64;

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/** Escapes other than a space: `%20` runs are search phrases, `%3D%40%3B` runs are records. */
function payloadEscapes(raw: string): number {
  let count = 0;
  for (let at = raw.indexOf('%'); at >= 0; at = raw.indexOf('%', at + 1)) {
    const code = raw.slice(at + 1, at + 3).toUpperCase();
    if (/^[0-9A-F]{2}$/.test(code) && code !== '20' && code !== '2B') count++;
  }
  return count;
}

/**
 * A value that is data, not words: base64-like (upper, lower and digits mixed), a hex run, or
 * heavily percent-encoded. Long lower-case slugs (`how-to-bake-bread-…`) are not data.
 */
export function isOpaque(raw: string, minLength: number): boolean {
  if (raw.length < minLength) return false;
  if (payloadEscapes(raw) >= E.minEncodedEscapes) return true;
  if (!OPAQUE.test(raw)) return false;
  const value = raw.includes('%') ? safeDecode(raw) : raw;
  if (value.length < minLength || /\s/.test(value)) return false;
  if (/^[0-9a-fA-F]+$/.test(value)) return value.length >= minLength * E.hexLengthFactor;
  return /[A-Z]/.test(value) && /[a-z]/.test(value) && /\d/.test(value);
}

function exemptImageHost(hostname: string): boolean {
  return EXEMPT.some((h) => hostname === h || hostname.endsWith(`.${h}`));
}

interface Param {
  key: string;
  value: string;
}

function queryParams(search: string): Param[] {
  if (search.length <= 1) return [];
  return search
    .slice(1)
    .split('&', MAX_PARAMS)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? { key: '', value: pair } : { key: safeDecode(pair.slice(0, eq)).toLowerCase(), value: pair.slice(eq + 1) };
    });
}

function namesCredential(key: string): boolean {
  if (CREDENTIAL_KEYS.has(key)) return true;
  return key.split(/[^a-z0-9]+/).some((part) => CREDENTIAL_KEYS.has(part));
}

/**
 * The strongest data evidence a URL carries, for a host the tenant has not allowed.
 * `autoLoads` (images, iframes, CSS) lowers the bar: such a URL leaks without anyone clicking.
 */
export function exfilEvidence(info: UrlInfo, autoLoads: boolean): ExfilEvidence | undefined {
  const decodedPathQuery = safeDecode(info.pathQuery);
  if (PLACEHOLDER.test(info.pathQuery) || PLACEHOLDER.test(decodedPathQuery)) return 'placeholder';
  if (autoLoads && (VARIABLE.test(info.pathQuery) || VARIABLE.test(decodedPathQuery))) return 'placeholder';
  if (autoLoads && !info.isIp && exemptImageHost(info.hostname)) return undefined;
  // Brand sites cannot be read by an attacker: only a template sent there counts.
  if (!info.isIp && isBrandDomain(info.hostname)) return undefined;
  const hash = info.pathQuery.indexOf('#');
  const beforeHash = hash < 0 ? info.pathQuery : info.pathQuery.slice(0, hash);
  const q = beforeHash.indexOf('?');
  const path = q < 0 ? beforeHash : beforeHash.slice(0, q);
  const params = queryParams(q < 0 ? '' : beforeHash.slice(q));
  // `?api_key=DEMO_KEY`, `?token=<TOKEN>`: a documented placeholder carries no credential.
  if (params.some((p) => p.value.length >= E.minCredentialValue && namesCredential(p.key) && !isPlaceholderValue(p.value))) return 'credential_params';
  const minValue = autoLoads || info.isIp ? E.minOpaqueImageValue : E.minOpaqueLinkValue;
  if (params.some((p) => isOpaque(p.value, minValue))) return 'encoded_payload';
  const segments = path.split('/', MAX_PARAMS).map((s) => s.replace(/\.[a-z0-9]{2,5}$/i, ''));
  const minSegment = autoLoads || info.isIp ? E.minOpaqueImagePathSegment : E.minOpaqueLinkPathSegment;
  if (segments.some((s) => isOpaque(s, minSegment))) return 'encoded_payload';
  const dataParams = params.filter((p) => !BENIGN_KEYS.has(p.key) && !p.key.startsWith('utm_'));
  if (info.isIp && dataParams.some((p) => p.value.length > 0)) return 'query_data';
  if (autoLoads && dataParams.some((p) => p.value.length >= E.minImageQueryValue)) return 'query_data';
  return undefined;
}

export interface ExfilVerdict {
  type: 'markdown_image_exfiltration' | 'image_query_data' | 'exfiltration_link';
  score: number;
  evidence: ExfilEvidence;
}

const S = config.scores;
const DESCRIBED = /[?&][^=&#]{1,64}=[^&#]*(?:\{|%7B|\[|%5B|<|%3C)/i;

/**
 * Images (and iframes, media, CSS) load by themselves: any data evidence blocks (in a prompt, where the
 * user typed the data, only templates, credentials and IP hosts do). Links need a
 * click, so they are HIGH (blocked in normal mode, tenant categoryActions may relax them); a
 * link's encoded payload is judged only in model output, where nobody typed it, and a link's
 * template only when it sits in a query value (API docs write `/users/{id}` in paths).
 */
export function judgeExfiltration(info: UrlInfo, autoLoads: boolean, kind: string): ExfilVerdict | undefined {
  const evidence = exfilEvidence(info, autoLoads);
  if (!evidence) return undefined;
  if (autoLoads) {
    // In a prompt the user typed the data: only a template, a credential or an IP host is a lure there.
    const typed = kind === 'prompt' && !info.isIp && (evidence === 'encoded_payload' || evidence === 'query_data');
    if (typed) return { type: 'image_query_data', score: S.imageDataInPrompt, evidence };
    if (evidence === 'query_data' && !info.isIp) return { type: 'image_query_data', score: S.imageQueryData, evidence };
    return { type: 'markdown_image_exfiltration', score: evidence === 'placeholder' ? S.imageExfilPlaceholder : S.imageExfil, evidence };
  }
  switch (evidence) {
    case 'placeholder':
      return DESCRIBED.test(info.pathQuery) ? { type: 'exfiltration_link', score: S.linkExfilPlaceholder, evidence } : undefined;
    case 'credential_params':
      return { type: 'exfiltration_link', score: S.linkExfilCredentials, evidence };
    case 'encoded_payload':
      if (info.isIp) return { type: 'exfiltration_link', score: S.linkExfilCredentials, evidence };
      return { type: 'exfiltration_link', score: kind === 'output' ? S.linkExfilEncodedOutput : S.linkExfilEncodedInput, evidence };
    case 'query_data':
      return { type: 'exfiltration_link', score: S.linkExfilIpQuery, evidence };
  }
}

import { phishingLayer } from '../../inspect/layers/phishing.js';
import { secretsLayer } from '../../inspect/layers/secrets.js';
import { runLayers } from '../../inspect/run-layers.js';
import { redact } from '../../inspect/redact.js';
import type { SecretFinding, Verdict } from '../../inspect/types.js';

// Only the two layers that judge assistant text for leakage: credentials and exfiltration URLs (images, links, autolinks).
const LEAK_LAYERS = [secretsLayer, phishingLayer];
/** HIGH: a data-carrying link in model output; images carrying data score BLOCK. */
const EXFIL_FLOOR = 0.75;

export interface Leak {
  type: string;
  layer: 'secrets' | 'phishing' | 'decision';
}

function scan(text: string, allowDomains: readonly string[]): Verdict {
  return runLayers({ content: text, kind: 'output', policy: { allowDomains: [...allowDomains] } }, LEAK_LAYERS);
}

const isExfil = (f: Verdict['flags'][number]) => f.layer === 'phishing' && f.category === 'exfiltration' && f.score >= EXFIL_FLOOR;

/**
 * Scans a bounded window of model output (point [B]) for a credential or an exfiltration URL. Small inputs only: it runs
 * on the event loop for every streamed delta, so the window is capped by BASTION_STREAM_HOLD_CHARS. `allowDomains` is
 * the tenant's allow-list (TenantPolicy.allowDomains): links to those hosts never count as exfiltration.
 */
export function findLeak(text: string, allowDomains: readonly string[] = []): Leak | undefined {
  const v = scan(text, allowDomains);
  const credential = v.secrets.find((s) => !s.pii);
  if (credential) return { type: credential.type, layer: 'secrets' };
  const exfil = v.flags.find(isExfil);
  if (exfil) return { type: exfil.type, layer: 'phishing' };
  return undefined;
}

export interface LocatedLeaks {
  leaks: Leak[];
  /** Where each leak is, relative to `from` (credential spans, or the URL carrying data out). */
  spans: SecretFinding[];
}

/**
 * Finds the leaks of `text[from:]` with their locations. The part before `from` was already released; it is scanned as
 * context so `password = hunter2` split across the boundary is still found. A leak the layers report without a
 * location covers the whole of `text[from:]`: never a silent pass.
 */
export function locateLeaks(text: string, allowDomains: readonly string[] = [], from = 0): LocatedLeaks {
  const v = scan(text, allowDomains);
  const leaks: Leak[] = [];
  const spans: SecretFinding[] = [];
  const add = (leak: Leak, start: number, end: number) => {
    if (end <= from) return; // already released before: nothing left to redact
    leaks.push(leak);
    spans.push({ type: leak.type, start: Math.max(start, from) - from, end: end - from });
  };
  for (const s of v.secrets) if (!s.pii) add({ type: s.type, layer: 'secrets' }, s.start, s.end);
  for (const f of v.flags) if (isExfil(f)) add({ type: f.type, layer: 'phishing' }, f.span?.start ?? from, f.span?.end ?? text.length);
  return { leaks, spans };
}

/**
 * Redacts a complete model answer in place instead of withholding it: each credential and each data-carrying link is
 * replaced by `[REDACTED:<type>]`, the rest of the answer is kept.
 */
export function redactLeaks(text: string, allowDomains: readonly string[] = []): { text: string; leaks: Leak[] } {
  const { leaks, spans } = locateLeaks(text, allowDomains);
  return { text: spans.length > 0 ? redact(text, spans, []) : text, leaks };
}

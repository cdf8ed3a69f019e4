import { phishingLayer } from '../../inspect/layers/phishing.js';
import { secretsLayer } from '../../inspect/layers/secrets.js';
import { inspect } from '../../inspect/pipeline.js';

// Only the two layers that judge assistant text for leakage: credentials and exfiltration URLs (images, links, autolinks).
const LEAK_LAYERS = [secretsLayer, phishingLayer];
/** HIGH: a data-carrying link in model output; images carrying data score BLOCK. */
const EXFIL_FLOOR = 0.75;

export interface Leak {
  type: string;
  layer: 'secrets' | 'phishing' | 'decision';
}

/**
 * Scans a bounded window of model output (point [B]) for a credential or an exfiltration URL. Small inputs only: it runs
 * on the event loop for every streamed delta, so the window is capped by BASTION_STREAM_HOLD_CHARS. `allowDomains` is
 * the tenant's allow-list (TenantPolicy.allowDomains): links to those hosts never count as exfiltration.
 */
export function findLeak(text: string, allowDomains: readonly string[] = []): Leak | undefined {
  const v = inspect({ content: text, kind: 'output', policy: { allowDomains: [...allowDomains] } }, LEAK_LAYERS);
  const credential = v.secrets.find((s) => !s.pii);
  if (credential) return { type: credential.type, layer: 'secrets' };
  const exfil = v.flags.find((f) => f.layer === 'phishing' && f.category === 'exfiltration' && f.score >= EXFIL_FLOOR);
  if (exfil) return { type: exfil.type, layer: 'phishing' };
  return undefined;
}

import { phishingLayer } from '../../inspect/layers/phishing.js';
import { secretsLayer } from '../../inspect/layers/secrets.js';
import { inspect } from '../../inspect/pipeline.js';

// Only the two layers that judge assistant text for leakage: credentials and Markdown-image/link exfiltration.
const LEAK_LAYERS = [secretsLayer, phishingLayer];

export interface Leak {
  type: string;
  layer: 'secrets' | 'phishing' | 'decision';
}

/**
 * Scans a bounded window of model output (point [B]) for a credential or an exfiltration URL. Small inputs only: it runs
 * on the event loop for every streamed delta, so the window is capped by BASTION_STREAM_HOLD_CHARS.
 */
export function findLeak(text: string): Leak | undefined {
  const v = inspect({ content: text, kind: 'output' }, LEAK_LAYERS);
  const credential = v.secrets.find((s) => !s.pii);
  if (credential) return { type: credential.type, layer: 'secrets' };
  const exfil = v.flags.find((f) => f.layer === 'phishing' && f.category === 'exfiltration' && f.score >= 0.75);
  if (exfil) return { type: exfil.type, layer: 'phishing' };
  return undefined;
}

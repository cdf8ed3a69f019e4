import type { Layer } from './types.js';
import { topologyLayer } from './layers/topology.js';
import { obfuscationLayer } from './layers/obfuscation.js';
import { secretsLayer } from './layers/secrets.js';
import { semanticLayer } from './layers/semantic.js';
import { hyperbolicLayer } from './layers/hyperbolic.js';
import { causalLayer } from './layers/causal.js';
import { phishingLayer } from './layers/phishing.js';
import { ersLayer } from './layers/ers.js';
import { decisionLayer } from './layers/decision.js';

/** The nine layers in SPEC §1 order. A static list: no runtime file scanning. */
export const LAYERS: readonly Layer[] = [
  topologyLayer,
  obfuscationLayer,
  secretsLayer,
  semanticLayer,
  hyperbolicLayer,
  causalLayer,
  phishingLayer,
  ersLayer,
  decisionLayer,
];

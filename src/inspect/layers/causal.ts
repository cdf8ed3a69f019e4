import type { Layer } from '../types.js';

// Placeholder: to be implemented (issue 3).
export const causalLayer: Layer = {
  name: 'causal',
  run() {},
};

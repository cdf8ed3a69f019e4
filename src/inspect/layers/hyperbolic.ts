import type { Layer } from '../types.js';

// Placeholder: to be implemented (issue 3).
export const hyperbolicLayer: Layer = {
  name: 'hyperbolic',
  run() {},
};

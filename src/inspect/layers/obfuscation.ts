import type { Layer } from '../types.js';

// Placeholder: to be implemented (issue 3).
export const obfuscationLayer: Layer = {
  name: 'obfuscation',
  run() {},
};

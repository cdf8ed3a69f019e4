import type { Layer } from '../types.js';

// Placeholder: to be implemented (issue 3).
export const semanticLayer: Layer = {
  name: 'semantic',
  run() {},
};

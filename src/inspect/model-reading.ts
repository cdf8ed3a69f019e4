import type { Flag } from './types.js';

/** Whether a flag is the statistical model's reading of the text (layers/semantic.ts), not a pattern, rule or detector. */
export const isModelReading = (f: Flag, type: 'prompt_injection' | 'indirect_injection' | 'dangerous_command'): boolean =>
  f.layer === 'semantic' && f.type === type && (f.detail ?? '').startsWith('model probability');

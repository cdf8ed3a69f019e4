/** A tenant policy under which detection misses: every threat category only reported, so the flow policy is what stands. */
export const DETECTION_OFF = {
  category_actions: Object.fromEntries(['injection', 'exfiltration', 'social_engineering', 'dangerous_action', 'obfuscation', 'anomaly'].map((c) => [c, 'flag' as const])),
};

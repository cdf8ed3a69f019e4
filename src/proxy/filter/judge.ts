// judge() moved to src/screening/judge.ts: the admin listener's /threat/neutralizer/assess screens text through it too.
export * from '../../screening/judge.js';

import type { Candidate } from './candidate.js';

/**
 * Keeps the most specific finding where candidates overlap: higher priority first, then the
 * longer span, then the earlier one. An occupancy bitmap makes each check cost the span's
 * length, so resolution stays linear in the text even with thousands of candidates.
 */
export function resolveOverlaps(candidates: readonly Candidate[], textLength: number, max: number): Candidate[] {
  if (candidates.length <= 1) return candidates.slice(0, max);
  const ordered = [...candidates].sort(
    (a, b) => b.priority - a.priority || b.end - b.start - (a.end - a.start) || a.start - b.start,
  );
  const occupied = new Uint8Array(textLength + 1);
  const kept: Candidate[] = [];
  for (const c of ordered) {
    if (kept.length >= max) break;
    let free = true;
    for (let i = c.start; i < c.end; i++) {
      if (occupied[i]) {
        free = false;
        break;
      }
    }
    if (!free) continue;
    occupied.fill(1, c.start, c.end);
    kept.push(c);
  }
  return kept.sort((a, b) => a.start - b.start);
}

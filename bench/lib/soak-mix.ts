/** What the soak sends, by weight: every data-plane route, streamed and not, and the portal's read routes. */
export type SoakKind = 'filter' | 'filter_attack' | 'filter_10k' | 'filter_200k' | 'batch' | 'chat' | 'chat_stream' | 'embeddings' | 'portal';

export const SOAK_MIX: { kind: SoakKind; weight: number }[] = [
  { kind: 'filter', weight: 30 },
  { kind: 'filter_attack', weight: 5 },
  { kind: 'filter_10k', weight: 5 },
  { kind: 'filter_200k', weight: 0.5 },
  { kind: 'batch', weight: 5 },
  { kind: 'chat', weight: 20 },
  { kind: 'chat_stream', weight: 15 },
  { kind: 'embeddings', weight: 10 },
  { kind: 'portal', weight: 5 },
];

export function pickWeighted(items: { kind: SoakKind; weight: number }[], r: number): SoakKind {
  const total = items.reduce((s, i) => s + i.weight, 0);
  let x = r * total;
  for (const item of items) {
    x -= item.weight;
    if (x < 0) return item.kind;
  }
  return items[items.length - 1].kind;
}

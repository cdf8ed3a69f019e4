import { existsSync, readFileSync } from 'node:fs';

/**
 * Benchmark inputs of a given size built from the benign dev items (prose, instructions, shell descriptions) when the
 * shared eval set is present, otherwise from a fixed paragraph: realistic text, deterministic order.
 */
const FALLBACK =
  'The quarterly report summarises revenue by region, notes a delay in the Osaka shipment, and asks the team to ' +
  'review the attached spreadsheet before Thursday. Please draft a short reply confirming the meeting time. ';

export function benignCorpus(devPath: string): string[] {
  if (!existsSync(devPath)) return [FALLBACK];
  const texts: string[] = [];
  for (const line of readFileSync(devPath, 'utf8').split('\n')) {
    if (!line) continue;
    const item = JSON.parse(line) as { label: string; kind: string; text: string };
    if (item.label === 'benign' && item.kind === 'prompt') texts.push(item.text);
    if (texts.length >= 400) break;
  }
  return texts;
}

export function textOfSize(corpus: string[], bytes: number, offset = 0): string {
  let out = '';
  for (let i = offset; Buffer.byteLength(out) < bytes; i++) out += corpus[i % corpus.length] + '\n';
  return Buffer.from(out).subarray(0, bytes).toString('utf8').replace(/\uFFFD$/, '');
}

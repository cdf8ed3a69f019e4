/**
 * `npx tsx scripts/build-injected-documents.ts [--attacks N] [--benign N]`: writes datasets/injected-documents.jsonl,
 * tool-result training documents built by inserting an attacker's instruction taken from one public source (the
 * `injection` spans of datasets/sources/, see its README) into a benign carrier of *another* source, in one of several
 * disguises (plain sentence, HTML comment, hidden element, alt text, code comment, JSON field, e-mail footer, an
 * address to the assistant in one of eight languages). Benign rows put ordinary notes (developer comments, footers,
 * reader instructions) into the same disguises, so that a hidden channel alone is not learnt as an attack.
 * Every row's `foldKeys` names the instruction's row and the carrier's row: a leave-one-source-out run that holds out
 * either source leaves the document out of training. `span` is where the instruction sits (UTF-16 offsets).
 * Deterministic (seeded); prints counts only.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import data from '../datasets/injected-documents.config.json' with { type: 'json' };
import { mulberry32 } from '../src/inspect/semantic/hashing.js';
import { readJsonl } from './lib/jsonl.js';

interface SourceRow {
  id: string;
  text: string;
  label: 'attack' | 'benign';
  kind: string;
  injection?: string;
}

interface Built {
  id: string;
  text: string;
  label: 'attack' | 'benign';
  kind: 'tool_result';
  category: string;
  subcategory: string;
  source: string;
  foldKeys: string[];
  span: [number, number];
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};

// Seeded, so the file is the same on every run.
const random = mulberry32(data.seed);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];

const rowsOf = (stem: string): SourceRow[] => readJsonl<SourceRow>(join(root, 'datasets', 'sources', `${stem}.jsonl`));

/** Instructions: one per distinct injection string, per source. */
const instructions = data.instructionSources.flatMap((stem) => {
  const seen = new Set<string>();
  return rowsOf(stem).filter((r) => r.kind === 'tool_result' && r.injection && !seen.has(r.injection) && seen.add(r.injection)).map((r) => ({ stem, id: r.id, text: r.injection as string }));
});
/** Carriers: benign tool results, cut to a paragraph boundary under maxCarrierChars. */
const carriers = data.carrierSources.flatMap((stem) =>
  rowsOf(stem)
    .filter((r) => r.kind === 'tool_result' && r.label === 'benign' && r.text.length >= 80)
    .map((r) => {
      const cut = r.text.length <= data.maxCarrierChars ? r.text.length : Math.max(r.text.lastIndexOf('\n', data.maxCarrierChars), data.maxCarrierChars / 2);
      return { stem, id: r.id, text: r.text.slice(0, cut) };
    }),
);

type Disguise = (payload: string, carrier: string) => { text: string; at: number };

/** Inserts `block` at a line or sentence boundary (start, middle or end) and returns where the payload starts. */
function insert(carrier: string, block: string, payload: string): { text: string; at: number } {
  const where = random();
  let cut = 0;
  if (where > 0.66) cut = carrier.length;
  else if (where > 0.33) {
    const mid = Math.floor(carrier.length / 2);
    const next = carrier.slice(mid).search(/[.!?]\s|\n/);
    cut = next < 0 ? carrier.length : mid + next + 1;
  }
  const before = carrier.slice(0, cut);
  const glue = cut === 0 ? '' : before.endsWith('\n') ? '' : '\n';
  const text = `${before}${glue}${block}${cut < carrier.length ? '\n' : ''}${carrier.slice(cut)}`;
  return { text, at: before.length + glue.length + block.indexOf(payload) };
}

const DISGUISES: Record<string, Disguise> = {
  plain: (p, c) => insert(c, p, p),
  html_comment: (p, c) => insert(c, `<!-- ${p} -->`, p),
  hidden_element: (p, c) => insert(c, `<div style="display:none">${p}</div>`, p),
  alt_text: (p, c) => insert(c, `<img src="banner.png" alt="${p.replace(/"/g, "'")}">`, p.replace(/"/g, "'")),
  code_comment: (p, c) => insert(c, `// ${p.replace(/\n/g, ' ')}`, p.replace(/\n/g, ' ')),
  json_field: (p, c) => {
    const value = JSON.stringify(p);
    const head = `{"content": ${JSON.stringify(c)}, "note": `;
    return { text: `${head}${value}}`, at: head.length + 1 };
  },
  email_footer: (p, c) => {
    const text = `${c}\n\n--\n${p}`;
    return { text, at: text.length - p.length };
  },
  addressed: (p, c) => {
    const block = `${pick(data.vocatives)} ${p}`;
    return insert(c, block, block);
  },
};
const names = Object.keys(DISGUISES);

function build(label: 'attack' | 'benign', n: number, startId: number): Built[] {
  const out: Built[] = [];
  for (let tries = 0; out.length < n && tries < n * 20; tries++) {
    const carrier = pick(carriers);
    // A benign note addressed to the assistant would be an instruction to it: benign rows never use that disguise.
    const disguise = pick(label === 'attack' ? names : names.filter((d) => d !== 'addressed'));
    let payload: string;
    let keys: string[];
    let source: string;
    if (label === 'attack') {
      const instruction = pick(instructions);
      // Held out by both: never an instruction and a carrier of the same source.
      if (instruction.stem === carrier.stem) continue;
      payload = instruction.text;
      keys = [instruction.id, carrier.id];
      source = `${instruction.stem}+${carrier.stem}`;
    } else {
      payload = pick(data.benignNotes);
      keys = [carrier.id];
      source = carrier.stem;
    }
    const { text, at } = DISGUISES[disguise](payload, carrier.text);
    const inner = disguise === 'json_field' ? JSON.stringify(payload).slice(1, -1) : disguise === 'code_comment' || disguise === 'alt_text' ? text.slice(at, at + payload.length) : payload;
    out.push({
      id: `injdoc-${startId + out.length}`,
      text,
      label,
      kind: 'tool_result',
      category: label === 'attack' ? 'injected_document' : 'disguised_benign',
      subcategory: disguise,
      source: `bastion/injected-documents:${source}`,
      foldKeys: keys,
      span: [at, at + inner.length],
    });
  }
  return out;
}

const attacks = build('attack', arg('--attacks', data.attacks), 0);
const benign = build('benign', arg('--benign', data.benign), attacks.length);
const rows = [...attacks, ...benign];
writeFileSync(join(root, 'datasets', 'injected-documents.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
const by = (xs: Built[], f: (b: Built) => string): Record<string, number> => xs.reduce<Record<string, number>>((acc, x) => ({ ...acc, [f(x)]: (acc[f(x)] ?? 0) + 1 }), {});
console.log(`instructions ${instructions.length}, carriers ${carriers.length}; wrote ${attacks.length} attack and ${benign.length} benign rows`);
console.log('by disguise', by(rows, (r) => `${r.label}/${r.subcategory}`));

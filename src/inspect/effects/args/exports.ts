import { finding } from '../settings.js';
import type { EffectFinding } from '../types.js';
import { anyDataNouns, bulkWords, dataNouns, isTrue, publicValues, words, normKey, type Leaf } from './leaves.js';
import { emailDomains, placeDomain, placeUrl, worst, type Placement } from './recipients.js';

/**
 * Bulk exports of people data (ATT&CK T1048, T1567, T1530), read from the arguments of any tool: the whole contact
 * list, the customer export, all users (`dataNouns` near `bulkWords`, a `*` selection or an unbounded limit) sent
 * to a recipient outside the account's domains or of unknown standing, uploaded to a destination bucket or
 * webhook, or shared publicly. A single record, an internal recipient or a public share of anything else passes.
 */

const DESTINATION_KEYS = new Set(['webhook', 'webhookurl', 'callbackurl', 'exportto', 'uploadto', 'destination', 'dest', 'destinationbucket', 's3uri', 'bucket', 'target', 'sink', 'deliverto']);
const PUBLIC_FLAG_KEYS = new Set(['public', 'ispublic', 'publicaccess', 'publiclink', 'anyonecanview']);
const GAP = '(?:[ \\t]+[a-z0-9\']{1,24}){0,3}[ \\t]+';

function nearby(a: RegExp, b: RegExp): RegExp {
  const src = (r: RegExp): string => r.source.replace('(?:^|[^a-z0-9])', '').replace('(?=$|[^a-z0-9])', '');
  return new RegExp(`\\b${src(a)}${GAP}${src(b)}\\b|\\b${src(b)}${GAP.replace('{0,3}', '{0,2}')}${src(a)}\\b`, 'i');
}
const BULK_NEAR_NOUN = nearby(bulkWords, dataNouns);
const BULK_NEAR_ANY_NOUN = nearby(bulkWords, anyDataNouns);
/** Where a data set is named rather than written about: files, attachments, tables, selections. */
const SELECTION_KEYS = /attach|file|path|table|resource|object|export|select|query|dataset|collection|document|report|scope|list/;
const DATA_FILE = /\.(csv|xlsx?|json|vcf|sql|zip|tsv|parquet)$/i;

/** A whole data set is selected: "all contacts", "customer export", `users_export.csv`, `{"query": "*"}` … */
export function selectsBulkPeopleData(leaves: Leaf[], text: string): boolean {
  const spaced = text.replace(/[_\-./]/g, ' ');
  const named = leaves.filter((l) => typeof l.value === 'string' && (l.path.some((k) => SELECTION_KEYS.test(k)) || DATA_FILE.test(l.value))).map((l) => ` ${l.path.join(' ')} ${String(l.value).slice(0, 256)}`).join(' ').replace(/[_\-./]/g, ' ');
  if (!dataNouns.test(spaced) && !anyDataNouns.test(named)) return false;
  if (BULK_NEAR_NOUN.test(spaced) || BULK_NEAR_ANY_NOUN.test(named)) return true;
  return leaves.some((l) => (typeof l.value === 'string' && /^\s*(\*|all)\s*$/i.test(l.value)) || (typeof l.value === 'number' && /limit|max|count|pagesize/.test(l.key) && (l.value < 0 || l.value >= 5000)));
}

function isPublicShare(leaves: Leaf[]): boolean {
  return leaves.some((l) => {
    if (!l.path.some((k) => words.visibility.has(k))) return false;
    if (typeof l.value === 'boolean' || typeof l.value === 'number') return PUBLIC_FLAG_KEYS.has(l.key) && isTrue(l.value);
    return publicValues.has(normKey(l.value)) && normKey(l.value) !== 'true';
  });
}

export function judgeBulkExport(leaves: Leaf[], own: ReadonlySet<string>, text: string, out: EffectFinding[]): void {
  if (!selectsBulkPeopleData(leaves, text)) return;
  if (isPublicShare(leaves)) {
    out.push(finding('public-share-people-data', 'public_share_sensitive', 'shares a people data set publicly'));
    return;
  }
  const places: Placement[] = [];
  for (const l of leaves) {
    if (typeof l.value !== 'string' || l.path.some((k) => words.account.has(k) && !words.recipient.has(k))) continue;
    if (l.path.some((k) => words.recipient.has(k))) places.push(...emailDomains(l.value).map((d) => placeDomain(d, own)));
    if (l.path.some((k) => DESTINATION_KEYS.has(k))) {
      const p = placeUrl(l.value.trim(), own);
      if (p) places.push(p);
    }
  }
  const where = worst(places);
  if (where === 'outside' || where === 'unknown') out.push(finding('bulk-export-outside', 'bulk_export_outside', `sends a people data set to ${where === 'outside' ? 'an outside' : 'an unverified'} recipient`));
}

import { urlFeatures } from './features.js';
import { parseUrl } from './host.js';
import { trainFromFeatures, type FeaturizedRow, type PhishingModel, type PhishingTrainingOptions, type PhishingTrainingRow } from './model.js';

/** Feature vectors of the rows whose URL parses as http(s); the others cannot be scored and are left out. */
export function featurizeUrls(rows: readonly PhishingTrainingRow[]): FeaturizedRow[] {
  const out: FeaturizedRow[] = [];
  for (const r of rows) {
    const info = parseUrl(r.url);
    if (info) out.push({ x: urlFeatures(info), label: r.label, source: r.source });
  }
  return out;
}

/** Pure and deterministic: what `npm run eval`'s leave-one-source-out runs call without the held-out source. */
export function trainPhishingModel(rows: readonly PhishingTrainingRow[], options?: PhishingTrainingOptions): PhishingModel {
  return trainFromFeatures(featurizeUrls(rows), options);
}

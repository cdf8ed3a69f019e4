/**
 * A secret or PII value located by one detector, before overlaps are resolved.
 * Offsets are UTF-16 indices into the scanned text.
 */
export interface Candidate {
  type: string;
  start: number;
  end: number;
  /** Higher wins an overlap: structured formats beat keyword heuristics, which beat PII. */
  priority: number;
  pii?: boolean;
  /** A checksum embedded in the token verified (e.g. GitHub's CRC32). */
  verified?: boolean;
}

/** Detector priorities, most specific first. */
export const PRIORITY = {
  privateKey: 100,
  token: 90,
  url: 80,
  keyed: 75,
  awsPair: 75,
  shell: 60,
  header: 60,
  password: 55,
  generic: 50,
  prose: 45,
  card: 40,
  iban: 40,
  ssn: 40,
  nationalId: 38,
  email: 30,
  phone: 25,
} as const;

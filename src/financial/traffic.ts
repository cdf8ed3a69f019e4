import type { DayCounts } from '../storage/daily-stats.js';
import { CONSTANTS, type Cited } from './constants.js';

/** The monthly traffic a report is computed from. Shadow-banned requests are part of the blocked ones. */
export interface MonthlyTraffic {
  requests: number;
  blocked: number;
  shadowBanned: number;
  pii: number;
  secrets: number;
}

/** One input a response used, and where it came from. */
export interface InputUsed {
  name: string;
  value: number | string | boolean | null;
  origin: 'stated' | 'recorded' | 'default' | 'assumption';
  detail: string;
}

export interface ResolvedTraffic {
  traffic: MonthlyTraffic;
  inputs: InputUsed[];
  /** Constants of kind `assumption` that the traffic depends on (estimate rates, default volume). */
  assumptions: Cited[];
  notes: string[];
}

/** Recorded totals over a window of whole UTC days (src/storage/daily-stats.ts). */
export interface RecordedWindow {
  totals: DayCounts;
  days: number;
  from: string;
  to: string;
}

function fromRates(requests: number): MonthlyTraffic {
  const r = CONSTANTS.estimateRates;
  const blocked = requests * r.blocked.value;
  return { requests, blocked, shadowBanned: Math.min(blocked, requests * r.shadowBanned.value), pii: requests * r.pii.value, secrets: requests * r.secrets.value };
}

const RATE_ASSUMPTIONS = () => Object.values(CONSTANTS.estimateRates);

/** live=false: the stated monthly volume (or the assumed default) at the assumed shares. */
export function estimatedTraffic(stated: number | undefined): ResolvedTraffic {
  const requests = stated ?? CONSTANTS.defaultMonthlyRequests.value;
  return {
    traffic: fromRates(requests),
    inputs: [
      stated === undefined
        ? { name: 'requests', value: requests, origin: 'assumption', detail: CONSTANTS.defaultMonthlyRequests.source }
        : { name: 'requests', value: requests, origin: 'stated', detail: 'monthly volume from the `requests` parameter' },
      { name: 'live', value: false, origin: 'stated', detail: 'estimate from volume alone: recorded statistics are not read' },
    ],
    assumptions: [...(stated === undefined ? [CONSTANTS.defaultMonthlyRequests] : []), ...RATE_ASSUMPTIONS()],
    notes: ['Blocked, shadow-banned, personal-data and credential counts are assumed shares of the volume (see assumptions).'],
  };
}

/**
 * live=true: the tenant's recorded window. Without `requests`, the window's counts scaled to one mean month
 * (days_per_month / days). With `requests`, the recorded shares applied to the stated volume. A window without
 * traffic claims nothing unless a volume is stated, in which case the assumed shares apply and the response says so.
 */
export function liveTraffic(window: RecordedWindow, stated: number | undefined): ResolvedTraffic {
  const t = window.totals;
  const recorded: InputUsed = {
    name: 'recorded_window',
    value: `${window.from}..${window.to}`,
    origin: 'recorded',
    detail: `${window.days} UTC days of the tenant's daily aggregates: ${t.requests} requests, ${t.blocked} blocked (${t.shadow_banned} shadow-banned), ${t.pii} personal-data and ${t.secrets} credential findings`,
  };
  const live: InputUsed = { name: 'live', value: true, origin: 'stated', detail: "the tenant's recorded statistics are used" };
  if (t.requests === 0) {
    if (stated === undefined) {
      return {
        traffic: { requests: 0, blocked: 0, shadowBanned: 0, pii: 0, secrets: 0 },
        inputs: [live, recorded, { name: 'requests', value: 0, origin: 'recorded', detail: 'no traffic recorded in the window' }],
        assumptions: [],
        notes: ['No traffic was recorded in the window: nothing is claimed. State `requests` or use live=false for an estimate.'],
      };
    }
    const estimate = estimatedTraffic(stated);
    return { ...estimate, inputs: [live, recorded, ...estimate.inputs.filter((i) => i.name !== 'live')], notes: ['No traffic was recorded in the window: the assumed shares apply to the stated volume.'] };
  }
  if (stated !== undefined) {
    const share = (n: number) => (stated * n) / t.requests;
    return {
      traffic: { requests: stated, blocked: share(t.blocked), shadowBanned: share(Math.min(t.shadow_banned, t.blocked)), pii: share(t.pii), secrets: share(t.secrets) },
      inputs: [live, recorded, { name: 'requests', value: stated, origin: 'stated', detail: "monthly volume from the `requests` parameter, at the window's recorded shares" }],
      assumptions: [],
      notes: [],
    };
  }
  const scale = CONSTANTS.daysPerMonth.value / window.days;
  return {
    traffic: {
      requests: t.requests * scale,
      blocked: t.blocked * scale,
      shadowBanned: Math.min(t.shadow_banned, t.blocked) * scale,
      pii: t.pii * scale,
      secrets: t.secrets * scale,
    },
    inputs: [live, recorded, { name: 'requests', value: t.requests * scale, origin: 'recorded', detail: `recorded window scaled to one month: × ${CONSTANTS.daysPerMonth.value} / ${window.days}` }],
    assumptions: [],
    notes: [],
  };
}

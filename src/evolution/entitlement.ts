import { checkEntitlement, type Entitled } from '../auth/entitlements.js';

/**
 * Whether a tenant's traffic may feed the evolution loop: config/plans.json sells it as the `evolution` add-on, so a
 * tenant without it (or a request with no tenant) has neither its attacks nor its reported misses analysed, and so
 * never gets rules of its own. Rules already promoted to every tenant still protect it: they are not made from its text.
 */
export function learnsFromTraffic(subject: Entitled | undefined): boolean {
  return subject !== undefined && checkEntitlement(subject, { addon: 'evolution' }).ok;
}

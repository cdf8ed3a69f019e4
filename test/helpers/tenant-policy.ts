import { tenantPolicies } from '../../src/policy/tenant-policies.js';
import type { Services } from '../../src/services.js';
import { writeTenantPolicy } from '../../src/storage/tenant-policies.js';

/** Stores a tenant's policy (wire fields, as `bastion tenants policy --set` writes them) and makes every cache read it. */
export async function setTenantPolicy(services: Services, tenantId: string, policy: Record<string, unknown>): Promise<void> {
  await writeTenantPolicy(services.storage.db, tenantId, policy);
  await tenantPolicies(services).changed(tenantId);
}

/**
 * For tests of the refusal itself (its shape through an SDK, how it counts): a tool result holding an injection refuses
 * the request, as under `tool_result_injection: block`, instead of being quarantined (the default, tested on its own).
 */
export const refuseInjectedResults = (services: Services, tenantId: string): Promise<void> => setTenantPolicy(services, tenantId, { tool_result_injection: 'block' });

import t from 'tap';
import { applyAssignments, effectivePolicy, validatePolicy, wirePolicy } from '../../src/config/tenant-policy.js';
import { DEFAULT_POLICY } from '../../src/inspect/types.js';

// What `bastion tenants policy T --set flows.own_domains=… --set flows.internal_hosts=…` stores and the data plane applies.

t.test('own domains and internal hosts are set from the CLI, validated and applied', async (t) => {
  const stored = applyAssignments({}, ['flows.own_domains=Acme.example,*.acme.io', 'flows.internal_hosts=*.corp.example,10.0.0.0/8']);
  t.same(stored.flows, { own_domains: ['Acme.example', '*.acme.io'], internal_hosts: ['*.corp.example', '10.0.0.0/8'] });
  const policy = effectivePolicy(DEFAULT_POLICY, stored);
  t.same(policy.flows?.ownDomains, ['acme.example', '*.acme.io'], 'lower-cased');
  t.same(policy.flows?.internalHosts, ['*.corp.example', '10.0.0.0/8']);
  t.same(wirePolicy(policy).flows?.own_domains, ['acme.example', '*.acme.io'], 'shown as written back');
  t.same(effectivePolicy(DEFAULT_POLICY, {}).flows?.ownDomains ?? [], [], 'none by default');
});

t.test('an address, a path or a space is not a domain: refused with the field named', async (t) => {
  t.throws(() => applyAssignments({}, ['flows.own_domains=anna@acme.example']), /own_domains/);
  t.throws(() => validatePolicy({ flows: { internal_hosts: ['bad host'] } }), /internal_hosts/);
  t.throws(() => validatePolicy({ flows: { own_domains: Array.from({ length: 257 }, (_, i) => `d${i}.example`) } }), /own_domains/);
});

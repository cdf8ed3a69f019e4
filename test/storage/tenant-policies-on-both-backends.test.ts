import t from 'tap';
import { loadConfig } from '../../src/config/load.js';
import { tenantPolicyCommand } from '../../src/cli/tenant-policy.js';
import { migrate, openStorage } from '../../src/storage/database.js';
import { readTenantPolicy, writeTenantPolicy } from '../../src/storage/tenant-policies.js';
import { createTenant } from '../../src/storage/tenants.js';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';

/** Runs `bastion tenants policy …` in-process and returns its exit code and printed JSON. */
async function cli(url: string, argv: string[]): Promise<{ code: number; out: { policy: Record<string, unknown>; effective: Record<string, unknown> } }> {
  const write = process.stdout.write.bind(process.stdout);
  let printed = '';
  process.stdout.write = ((chunk: string) => ((printed += chunk), true)) as typeof process.stdout.write;
  try {
    const code = await tenantPolicyCommand(loadConfig({ DATABASE_URL: url }), argv);
    return { code, out: JSON.parse(printed) };
  } finally {
    process.stdout.write = write;
  }
}

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: tenant detection policies`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const url = await databaseUrl(t, backend);
    const storage = openStorage(url);
    t.teardown(() => storage.close());
    t.ok((await migrate(storage)).includes('0004-tenant-policies'), 'the migration applies');
    await createTenant(storage.db, 'acme', 'startup');
    await createTenant(storage.db, 'globex', 'free');

    t.test('a tenant without a stored policy follows the defaults', async (t) => {
      t.equal(await readTenantPolicy(storage.db, 'acme'), undefined);
    });

    t.test('a written policy reads back validated and normalised, per tenant', async (t) => {
      await writeTenantPolicy(storage.db, 'acme', { strict: true, allow_domains: ['Docs.Acme.com', 'acme.com', 'acme.com'], system_messages: 'inspect' });
      t.same(await readTenantPolicy(storage.db, 'acme'), { strict: true, allow_domains: ['acme.com', 'docs.acme.com'], system_messages: 'inspect' });
      t.equal(await readTenantPolicy(storage.db, 'globex'), undefined, 'another tenant is untouched');
      await writeTenantPolicy(storage.db, 'acme', { content_parts: 'block_unknown' });
      t.same(await readTenantPolicy(storage.db, 'acme'), { content_parts: 'block_unknown' }, 'a write replaces the whole policy');
      await writeTenantPolicy(storage.db, 'acme', {});
      t.equal(await readTenantPolicy(storage.db, 'acme'), undefined, 'an empty policy resets the tenant to the defaults');
    });

    t.test('an invalid policy is refused on write, and a corrupted row fails loudly on read', async (t) => {
      await t.rejects(writeTenantPolicy(storage.db, 'acme', { secret_mode: 'ignore' } as never), /invalid tenant policy/);
      await t.rejects(writeTenantPolicy(storage.db, 'acme', { stict: true } as never), /invalid tenant policy/, 'a typo is not silently dropped');
      await t.rejects(writeTenantPolicy(storage.db, 'acme', { allow_domains: Array.from({ length: 257 }, (_, i) => `d${i}.example`) }), /invalid tenant policy/, 'arrays are bounded');
      await storage.db.insertInto('tenant_policies').values({ tenant_id: 'globex', policy: '{"secret_mode":"off"}', updated_at: Date.now() }).execute();
      await t.rejects(readTenantPolicy(storage.db, 'globex'), /invalid tenant policy/, 'never read as "no policy"');
      await storage.db.deleteFrom('tenant_policies').where('tenant_id', '=', 'globex').execute();
    });

    t.test('bastion tenants policy ID --set/--unset/--show', async (t) => {
      const set = await cli(url, ['acme', '--set', 'secret_mode=block', '--set', 'category_actions.injection=flag', '--set', 'allow_domains=acme.com,cdn.acme.com']);
      t.equal(set.code, 0);
      t.same(set.out.policy, { secret_mode: 'block', category_actions: { injection: 'flag' }, allow_domains: ['acme.com', 'cdn.acme.com'] });
      t.equal(set.out.effective.system_messages, 'secrets_only', 'unset fields show the process default');
      t.equal(set.out.effective.secret_mode, 'block');
      const unset = await cli(url, ['acme', '--unset', 'category_actions', '--show']);
      t.same(unset.out.policy, { secret_mode: 'block', allow_domains: ['acme.com', 'cdn.acme.com'] });
      t.same(await readTenantPolicy(storage.db, 'acme'), unset.out.policy, 'stored in the database');
      await t.rejects(cli(url, ['acme', '--set', 'strict=yes']), /strict must be true or false/);
      await t.rejects(cli(url, ['acme', '--set', 'paranoid=true']), /unknown policy field paranoid/);
      await t.rejects(cli(url, ['nobody', '--show']), /no tenant nobody/);
    });
  });
}

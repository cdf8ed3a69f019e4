import { PORTAL_POLICY } from '../auth/portal-policy.js';
import { addAccountToTenant, normalizeEmail } from '../auth/accounts.js';
import type { Config } from '../config/schema.js';
import { RequestValidationError } from '../errors.js';
import { migrate, openStorage } from '../storage/database.js';
import { TENANT_ID, parse } from './args.js';
import { UsageError } from './usage-error.js';
import { readPassword } from './read-password.js';

export const ACCOUNTS_USAGE = 'accounts create --tenant ID --email E [--name N]';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * `bastion accounts create`: a console account for an existing tenant — the way into the console for the `default`
 * tenant that `npm start` creates, which sign-up (a new tenant per account) never reaches. The password comes from
 * BASTION_ACCOUNT_PASSWORD or standard input, never from the arguments; it is hashed with argon2id like sign-up's.
 */
export async function accountsCommand(config: Config, argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'create') throw new UsageError(ACCOUNTS_USAGE);
  const { values } = parse(rest, { tenant: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' } });
  if (!values.tenant || !TENANT_ID.test(values.tenant)) throw new UsageError('accounts create needs --tenant ID (1–64 of A-Z a-z 0-9 _ . -)');
  const email = normalizeEmail(values.email ?? '');
  if (email.length < 3 || email.length > 254 || !EMAIL.test(email)) throw new UsageError('accounts create needs --email with an e-mail address');
  if (values.name !== undefined && (values.name.length < 1 || values.name.length > 128)) throw new UsageError('--name must be 1 to 128 characters');
  const password = await readPassword(env, 'BASTION_ACCOUNT_PASSWORD', 'password for the new account: ');
  const { minLength, maxLength } = PORTAL_POLICY.password;
  if (password.length < minLength || password.length > maxLength) {
    throw new UsageError(`the password must be ${minLength} to ${maxLength} characters (BASTION_ACCOUNT_PASSWORD or the first line of standard input)`);
  }
  const storage = openStorage(config.databaseUrl);
  try {
    await migrate(storage);
    const account = await addAccountToTenant(storage.db, values.tenant, { email, password, ...(values.name ? { displayName: values.name } : {}) }).catch((err: unknown) => {
      if (err instanceof RequestValidationError) throw new UsageError(err.issues[0]?.msg ?? 'password refused');
      throw err;
    });
    if (account === 'no-tenant') throw new UsageError(`no tenant ${values.tenant}: \`npm start\` creates \`default\`; others with \`bastion tenants create ID\``);
    if (account === 'taken') throw new UsageError(`${email} already has an account`);
    process.stdout.write(`created account ${account.id} for tenant ${account.tenantId} (${account.email}); sign in at the console, /console/ on the admin port\n`);
    return 0;
  } finally {
    await storage.close();
  }
}

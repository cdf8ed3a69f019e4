import type { FastifyInstance } from 'fastify';
import { refuseSpoofingName } from '../../http/display-name.js';
import { Type, type Static } from 'typebox';
import { enabledTotp } from '../../auth/sign-in.js';
import type { AccountWithPlan } from '../../storage/accounts.js';
import { findAccountWithPlan, updateProfile } from '../../storage/accounts.js';
import { Company, DisplayName, Nullable, iso } from './schemas.js';

export const Profile = Type.Object({
  account_id: Type.String(),
  tenant_id: Type.String(),
  email: Type.String(),
  display_name: Type.Union([Type.String(), Type.Null()]),
  company: Type.Union([Type.String(), Type.Null()]),
  plan: Type.String(),
  totp_enabled: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
});

const PatchBody = Type.Object(
  { display_name: Type.Optional(Nullable(DisplayName)), company: Type.Optional(Nullable(Company)) },
  { additionalProperties: false, minProperties: 1, description: 'null clears a field. The e-mail address is not changeable here.' },
);

export function profileOf(account: AccountWithPlan, totpEnabled: boolean): Static<typeof Profile> {
  return {
    account_id: account.id,
    tenant_id: account.tenantId,
    email: account.email,
    display_name: account.displayName,
    company: account.company,
    plan: account.plan,
    totp_enabled: totpEnabled,
    created_at: iso(account.createdAt)!,
  };
}

/** GET/PATCH /portal/me: the signed-in customer's profile. */
export async function portalMeRoutes(app: FastifyInstance): Promise<void> {
  const db = app.services.storage.db;

  app.get('/me', { config: { security: 'bearer' }, schema: { summary: 'The signed-in account', response: { 200: Profile } } }, async (request) => {
    const { account } = request.portal!;
    return profileOf(account, (await enabledTotp(db, account.id)) !== undefined);
  });

  app.patch<{ Body: Static<typeof PatchBody> }>(
    '/me',
    { config: { security: 'bearer' }, schema: { summary: 'Change display_name and/or company', body: PatchBody, response: { 200: Profile } } },
    async (request) => {
      const { accountId } = request.portal!;
      refuseSpoofingName(request.body.display_name);
      await updateProfile(db, accountId, { displayName: request.body.display_name, company: request.body.company });
      const account = (await findAccountWithPlan(db, accountId))!;
      return profileOf(account, (await enabledTotp(db, accountId)) !== undefined);
    },
  );
}

import t from 'tap';
import { createContext } from '../../src/inspect/pipeline.js';
import { secretsLayer } from '../../src/inspect/layers/secrets.js';
import { TOKEN_FORMAT_COUNT } from '../../src/inspect/secrets/tokens.js';
import { type InspectionContext, type Kind } from '../../src/inspect/types.js';
import { fakeTokens } from '../helpers/fake-tokens.js';

// Fake credentials are assembled at run time (test/helpers/fake-tokens.ts).
const { rand, hex, b64, urlsafe, digits } = fakeTokens(42);

function scan(text: string, kind: Kind = 'prompt'): InspectionContext {
  const ctx = createContext({ content: text, kind });
  secretsLayer.run(ctx);
  return ctx;
}

/** [expected type, secret value, text embedding it] */
function cases(): [string, string, string][] {
  const c: [string, string, string][] = [];
  const add = (type: string, secret: string, wrap: (s: string) => string) => c.push([type, secret, wrap(secret)]);
  add('aws_access_key', 'AKIA' + rand(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'), (s) => `aws_access_key_id = ${s}`);
  add('aws_secret_key', b64(40), (s) => `AWS_SECRET_ACCESS_KEY=${s}`);
  add('aws_secret_key', b64(40), (s) => `key AKIA${rand(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')} with secret ${s} in us-east-1`);
  add('github_token', 'ghp_' + rand(36), (s) => `GITHUB_TOKEN=${s}`);
  add('github_token', 'ghs_' + rand(36), (s) => `git clone https://x-access-token:${s}@github.com/o/r.git`);
  add('github_pat', `github_pat_11${rand(20)}_${rand(59)}`, (s) => `token: ${s}`);
  add('gitlab_token', 'glpat-' + urlsafe(20), (s) => `export GITLAB_TOKEN=${s}`);
  add('slack_token', `xoxb-${digits(11)}-${digits(12)}-${rand(24)}`, (s) => `slack: "${s}"`);
  add('slack_token', `xoxp-${digits(12)}-${digits(12)}-${digits(13)}-${hex(32)}`, (s) => s);
  add('slack_webhook', `https://hooks.slack.com/services/T${digits(8)}/B${digits(8)}/${rand(24)}`, (s) => `webhook ${s} for alerts`);
  add('stripe_key', 'sk_live_' + rand(24), (s) => `Stripe.api_key = '${s}'`);
  add('stripe_key', 'rk_test_' + rand(99), (s) => s);
  add('openai_key', `sk-proj-${urlsafe(58)}T3BlbkFJ${urlsafe(58)}`, (s) => `Authorization: Bearer ${s}`);
  add('openai_key', `sk-${rand(20)}T3BlbkFJ${rand(20)}`, (s) => `openai.api_key = "${s}"`);
  add('anthropic_key', `sk-ant-api03-${urlsafe(93)}AA`, (s) => `x-api-key: ${s}`);
  add('google_api_key', 'AIza' + urlsafe(35), (s) => `https://maps.googleapis.com/maps/api/js?key=${s}&callback=init`);
  add('google_oauth_secret', 'GOCSPX-' + urlsafe(28), (s) => `"client_secret": "${s}"`);
  add('twilio_api_key', 'SK' + hex(32), (s) => `TWILIO_API_KEY=${s}`);
  add('sendgrid_api_key', `SG.${urlsafe(22)}.${urlsafe(43)}`, (s) => s);
  add('mailgun_api_key', 'key-' + hex(32), (s) => `api: ${s}`);
  add('npm_token', 'npm_' + rand(36), (s) => `//registry.npmjs.org/:_authToken=${s}`);
  add('pypi_token', 'pypi-AgEIcHlwaS5vcmc' + urlsafe(70), (s) => `password = ${s}`);
  add('docker_hub_token', 'dckr_pat_' + urlsafe(27), (s) => `echo ${s} | docker login -u me --password-stdin`);
  add('heroku_api_key', 'HRKU-' + urlsafe(60), (s) => s);
  add('digitalocean_token', 'dop_v1_' + hex(64), (s) => s);
  add('shopify_token', 'shpat_' + hex(32), (s) => `X-Shopify-Access-Token: ${s}`);
  add('azure_storage_key', b64(86) + '==', (s) => `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${s};EndpointSuffix=core.windows.net`);
  add('huggingface_token', 'hf_' + rand(34), (s) => `HF_TOKEN=${s}`);
  add('databricks_token', 'dapi' + hex(32), (s) => s);
  add('telegram_bot_token', `${digits(10)}:AA${urlsafe(33)}`, (s) => `https://api.telegram.org/bot${s}/getMe`);
  add('square_token', 'EAAA' + urlsafe(60), (s) => s);
  add('braintree_token', `access_token$production$${rand(16, 'abcdefghijklmnopqrstuvwxyz0123456789')}$${hex(32)}`, (s) => s);
  add('linear_api_key', 'lin_api_' + rand(40), (s) => s);
  add('notion_token', 'secret_' + rand(43), (s) => `NOTION_TOKEN=${s}`);
  add('vault_token', 'hvs.' + urlsafe(90), (s) => `VAULT_TOKEN=${s}`);
  add('doppler_token', 'dp.pt.' + rand(43), (s) => s);
  add('postman_api_key', `PMAK-${hex(24)}-${hex(34)}`, (s) => s);
  add('grafana_token', `glsa_${rand(32)}_${hex(8)}`, (s) => s);
  add('new_relic_key', 'NRAK-' + rand(27, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'), (s) => s);
  add('age_secret_key', 'AGE-SECRET-KEY-1' + rand(58, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L'), (s) => s);
  add('jwt', `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MiJ9.${urlsafe(43)}`, (s) => `Cookie: session=${s}`);
  add('postgres_url', `postgresql://app:${rand(14)}@db.internal:5432/prod?sslmode=require`, (s) => `DATABASE_URL=${s}`);
  add('database_url', `mongodb+srv://svc:${rand(16)}@cluster0.abcde.mongodb.net/prod`, (s) => `MONGO_URI="${s}"`);
  add('database_url', `redis://:${rand(20)}@cache.internal:6379/0`, (s) => s);
  add('url_credentials', `https://builder:${rand(14)}@pypi.corp.net/simple`, (s) => `pip install --index-url ${s} pkg`);
  add('password', `Kx8!${rand(10)}`, (s) => `[database]\nuser = app\npassword = ${s}`);
  add('password', `${rand(12)}!9`, (s) => `{"username": "app", "password": "${s}"}`);
  add('password', `${rand(10)}#1`, (s) => `mysql -h db -u root -p'${s}' shop`);
  add('password', `${rand(10)}:3x`, (s) => `curl -u deploy:${s} https://ci.corp.io/api/json`);
  add('password', `${rand(10)}#4`, (s) => `sshpass -p '${s}' ssh admin@10.0.0.5`);
  add('password', `${rand(10)}7`, (s) => `PGPASSWORD=${s} psql -h db -U app`);
  add('password', `${rand(12)}9`, (s) => `machine api.corp.io login me password ${s}`);
  add('password', `Tr0ub4dor&${rand(4)}`, (s) => `my wifi password is ${s}, can you remember it?`);
  add('password', `${rand(10)}7$`, (s) => `the login for the NAS is svc-backup / ${s}, thanks`);
  add('password', `${rand(10)}!2`, (s) => `<add connectionString="Server=sql01;User Id=sa;Password=${s};" />`);
  add('generic_secret', rand(50), (s) => `SECRET_KEY = '${s}'`);
  add('api_key', rand(32), (s) => `X-API-Key: ${s}`);
  add('bearer_token', urlsafe(40), (s) => `curl -H "Authorization: Bearer ${s}" https://api.corp.io`);
  add('basic_auth', Buffer.from(`admin:${rand(12)}`).toString('base64'), (s) => `Authorization: Basic ${s}`);
  add('cloudflare_token', urlsafe(40), (s) => `CLOUDFLARE_API_TOKEN=${s}`);
  add('discord_bot_token', `${Buffer.from(digits(18).replace(/^0/, '1')).toString('base64')}.${urlsafe(6)}.${urlsafe(38)}`, (s) => `client.login('${s}')`);
  add('atlassian_token', `ATATT3xFfGF0${urlsafe(170)}=${hex(8).toUpperCase()}`, (s) => `JIRA_API_TOKEN=${s}`);
  add('sentry_dsn', `https://${hex(32)}:${hex(32)}@o12345.ingest.sentry.io/678`, (s) => `SENTRY_DSN=${s}`);
  add('azure_sas_token', `${b64(43)}%3D`, (s) => `https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&se=2025-01-01T00%3A00%3A00Z&sr=b&sp=r&sig=${s}`);
  add('database_url', `mysql://root:${rand(12)}@10.0.0.7:3306/shop`, (s) => `spring.datasource.url=${s}`);
  add('password', `${rand(10)}#9`, (s) => `define('DB_PASSWORD', '${s}');`);
  add('password', `${rand(10)}#9`, (s) => `ALTER USER app WITH PASSWORD '${s}';`);
  add('password', `${rand(10)}#9`, (s) => `os.environ["DB_PASSWORD"] = "${s}"`);
  return c;
}

t.test('covers at least forty credential formats', async (t) => {
  t.ok(TOKEN_FORMAT_COUNT >= 40, `${TOKEN_FORMAT_COUNT} token formats`);
});

t.test('finds each format with its type and exact offsets', async (t) => {
  for (const [type, secret, text] of cases()) {
    const ctx = scan(text);
    const found = ctx.secrets.find((s) => s.type === type);
    t.ok(found, `${type} found in "${text.slice(0, 40)}…"`);
    if (found) t.equal(text.slice(found.start, found.end), secret, `${type} span is the secret itself`);
    t.notOk(found?.pii, `${type} is a credential, not PII`);
  }
});

t.test('private keys: PEM, OpenSSH, PGP, encrypted, JSON-escaped and truncated blocks', async (t) => {
  const body = `${b64(64)}\n${b64(64)}\n${b64(20)}==`;
  const blocks = [
    `-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`,
    `-----BEGIN OPENSSH PRIVATE KEY-----\n${body}\n-----END OPENSSH PRIVATE KEY-----`,
    `-----BEGIN EC PRIVATE KEY-----\n${body}\n-----END EC PRIVATE KEY-----`,
    `-----BEGIN ENCRYPTED PRIVATE KEY-----\n${body}\n-----END ENCRYPTED PRIVATE KEY-----`,
    `-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n${body}\n-----END PGP PRIVATE KEY BLOCK-----`,
  ];
  for (const block of blocks) {
    const text = `$ cat ~/.ssh/id_key\n${block}\n$ `;
    const ctx = scan(text);
    t.equal(ctx.secrets.length, 1, block.slice(0, 40));
    t.equal(text.slice(ctx.secrets[0].start, ctx.secrets[0].end), block, 'span covers BEGIN to END');
    t.equal(ctx.secrets[0].type, 'private_key');
  }
  const json = `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n${b64(64)}\\n${b64(64)}\\n-----END PRIVATE KEY-----\\n"}`;
  t.equal(scan(json).secrets[0]?.type, 'private_key', 'GCP service-account JSON');
  const truncated = `why does ssh say invalid format?\n\n-----BEGIN PRIVATE KEY-----\n${b64(64)}\n${b64(40)}`;
  t.equal(scan(truncated).secrets[0]?.type, 'private_key', 'block cut before END');
});

t.test('a GitHub token with a valid CRC32 checksum is reported as verified', async (t) => {
  const { crc32, base62Encode } = await import('../../src/inspect/secrets/checksums.js');
  const random = rand(30);
  const token = `ghp_${random}${base62Encode(crc32(random), 6)}`;
  const verified = scan(`token ${token}`).flags.find((f) => f.type === 'github_token');
  t.match(verified?.detail, /checksum verified/);
  const unverified = scan(`token ghp_${rand(36)}`).flags.find((f) => f.type === 'github_token');
  t.ok(unverified, 'a token without a valid checksum is still found');
  t.notMatch(unverified?.detail, /checksum verified/);
});

t.test('the most specific finding wins an overlap, without duplicate spans', async (t) => {
  const token = 'ghp_' + rand(36);
  const ctx = scan(`GITHUB_TOKEN="${token}"`);
  t.equal(ctx.secrets.length, 1);
  t.equal(ctx.secrets[0].type, 'github_token', 'prefix format beats the generic token= assignment');
  const jwt = `eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.${urlsafe(86)}`;
  const header = scan(`Authorization: Bearer ${jwt}`);
  t.same(header.secrets.map((s) => s.type), ['jwt'], 'JWT beats bearer_token');
  const url = scan(`postgres://admin:${rand(12)}9@db.corp.io:5432/app`);
  t.same(url.secrets.map((s) => s.type), ['postgres_url'], 'URL is one finding, not URL + email');
});

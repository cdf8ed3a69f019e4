import t from 'tap';
import { createContext } from '../../src/inspect/pipeline.js';
import { secretsLayer } from '../../src/inspect/layers/secrets.js';
import { type Kind } from '../../src/inspect/types.js';

let seed = 7;
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function rand(n: number, alphabet = ALNUM): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    s += alphabet[Math.floor((((x ^ (x >>> 14)) >>> 0) / 4294967296) * alphabet.length)];
  }
  return s;
}
const hex = (n: number) => rand(n, '0123456789abcdef');
const b64 = (n: number) => rand(n, ALNUM + '+/');

function findings(text: string, kind: Kind = 'tool_result'): string[] {
  const ctx = createContext({ content: text, kind });
  secretsLayer.run(ctx);
  return [...ctx.secrets.map((s) => `${s.type}:${text.slice(s.start, s.end)}`), ...ctx.flags.map((f) => f.type)];
}

const families: Record<string, string[]> = {
  'git SHAs': [
    `git checkout ${hex(40)}`,
    `The regression came in with commit ${hex(40)}, what changed?`,
    `commit ${hex(40)}\nAuthor: Maria Lopez <maria@northwind.dev>\nDate:   Tue May 14 10:22:31 2024 +0200`,
  ],
  UUIDs: [`Order ${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)} never shipped`, `{"id": "${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}", "status": "ok"}`],
  digests: [
    `${hex(64)}  release-v2.6.0.tar.gz`,
    `docker pull nginx@sha256:${hex(64)}`,
    `sha512sum: ${hex(128)}`,
    `"integrity": "sha512-${b64(86)}=="`,
    `<script src="app.js" integrity="sha384-${b64(64)}" crossorigin="anonymous"></script>`,
  ],
  'base64 data and images': [
    `<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA${b64(400)}" />`,
    `payload: eyJwYWdlIjoyLCJwZXJfcGFnZSI6NTB9`,
    `attachment: ${b64(2000)}==`,
  ],
  'public keys and certificates': [
    `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ${b64(300)} alice@laptop`,
    `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${b64(43)} ops@bastion`,
    `-----BEGIN PUBLIC KEY-----\n${b64(64)}\n${b64(64)}\n-----END PUBLIC KEY-----`,
    `-----BEGIN CERTIFICATE-----\n${b64(64)}\n${b64(64)}\n-----END CERTIFICATE-----`,
    `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n${b64(64)}\n-----END PGP PUBLIC KEY BLOCK-----`,
  ],
  'publishable keys and public ids': [
    `const stripe = Stripe('pk_live_${rand(24)}');`,
    `NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=pk_test_${rand(24)}`,
    `<script async src="https://www.googletagmanager.com/gtag/js?id=G-${rand(10, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}"></script>`,
    `mapboxgl.accessToken = 'pk.eyJ1Ijoib3BzIiwiYSI6ImNr${rand(20)}In0.${rand(22)}';`,
  ],
  'environment references': [
    `import os\nclient = OpenAI(api_key=os.environ["OPENAI_API_KEY"])`,
    `const stripe = require('stripe')(process.env.STRIPE_SECRET_KEY);`,
    `curl -s -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user`,
    `DATABASE_URL=postgres://app:\${DB_PASSWORD}@db:5432/app`,
    `password: \${{ secrets.DB_PASSWORD }}`,
    `export AWS_SECRET_ACCESS_KEY=$AWS_SECRET_ACCESS_KEY`,
    `api_key = os.getenv("API_KEY")`,
    `password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256`,
    `sshpass -p \`cat /run/secrets/pw\` ssh host`,
  ],
  'redacted values': [
    `OPENAI_API_KEY=sk-proj-****************************mxOY`,
    `password = ********`,
    `Authorization: Bearer [REDACTED]\nContent-Type: application/json`,
    `my stripe key ends in ...E1NB, is that the live or test one?`,
    `-----BEGIN OPENSSH PRIVATE KEY-----\n<redacted>\n-----END OPENSSH PRIVATE KEY-----`,
    `token: xxxxxxxxxxxxxxxxxxxxxxxx`,
    `api_key: "•••••••••••••"`,
  ],
  placeholders: [
    `GITHUB_TOKEN=<your-token-here>`,
    `client = Anthropic(api_key="YOUR_ANTHROPIC_API_KEY")`,
    `the docs example uses password=changeme123 (placeholder)`,
    `AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`,
    `export OPENAI_API_KEY="sk-..."`,
    `STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx`,
    `GOOGLE_API_KEY=AIzaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX`,
    `Here is my key xoxb-XXXXXXXXXXXX-XXXXXXXXXXXXX-XXXXXXXXXXXXXXXXXXXXXXXX`,
    `password: "your-password-here"`,
    `login for the staging admin panel is root / TODO`,
    `db_password: dummy`,
    `psql "postgresql://<user>:<password>@<host>:5432/<db>"`,
    `DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME`,
    `postgres://user:password@localhost:5432/mydb`,
    `STRIPE_KEY=sk_live_1234567890abcdefghijklmn`,
  ],
  'URLs without a password': [
    `DATABASE_URL=postgres://localhost:5432/billing`,
    `psql -h localhost -U webapp warehouse`,
    `REDIS_URL=redis://cache:6379/0`,
    `https://deploy@git.corp.io/repo.git`,
  ],
  'prose about passwords': [
    `Error: password authentication failed for user "admin"`,
    `How do I reset the postgres password if I forgot it?`,
    `The password must be at least 12 characters long.`,
    `echo "$REGISTRY_TOKEN" | docker login ghcr.io -u svc --password-stdin`,
    `Passwords must contain a number and a symbol (e.g. !, #, $).`,
    `Forgot your password? Reset it from the login page.`,
    `def login(username: str, password: str) -> bool:`,
    `password = getpass.getpass("Password: ")`,
  ],
  'high-entropy ids without a secret keyword': [
    `trace_id=${hex(32)} span_id=${hex(16)}`,
    `ETH address: 0x${hex(40)}`,
    `The upload returned etag "${hex(32)}" - is that the MD5?`,
    `X-Request-Id: ${rand(32)}`,
    `"next_page_token": "${rand(40)}", "max_tokens": 1024`,
    `token_type: Bearer\nexpires_in: 3600`,
  ],
  'shell flags that are not passwords': [`mysql -u root -p mydb`, `ssh -p 2222 build-agent`, `docker run -p 8080:80 nginx`, `mkdir -p /var/lib/app`],
  'non-English prose': [`Bitte ändern Sie Ihr Passwort regelmäßig.`, `パスワードを忘れた場合はリセットしてください。`, `Le mot de passe est requis pour continuer.`],
  'security articles quoting formats': [
    `GitHub tokens start with ghp_, gho_ or ghs_ followed by 36 characters.`,
    `AWS access key ids look like AKIA followed by sixteen characters.`,
    `A JWT has three parts: header.payload.signature, each base64url encoded.`,
  ],
};

for (const [family, texts] of Object.entries(families)) {
  t.test(`quiet on ${family}`, async (t) => {
    for (const text of texts) t.same(findings(text), [], text.slice(0, 60));
  });
}

import t from 'tap';
import { createContext } from '../../src/inspect/pipeline.js';
import { phishingLayer } from '../../src/inspect/layers/phishing.js';

function topScore(content: string): number {
  const ctx = createContext({ content, kind: 'prompt' });
  phishingLayer.run(ctx);
  return Math.max(0, ...ctx.flags.map((f) => f.score));
}

const LURE = 'Security alert: your account will be suspended. Verify your identity within 24 hours at';

t.test('official login and account pages of real brands are quiet, even in a lure message', async (t) => {
  for (const url of [
    'https://accounts.google.com/ServiceLogin',
    'https://login.microsoftonline.com/common/oauth2/authorize',
    'https://www.paypal.com/signin',
    'https://appleid.apple.com/sign-in',
    'https://signin.aws.amazon.com/console',
    'https://github.com/login',
    'https://www.amazon.co.jp/ap/signin',
    'https://direct.bk.mufg.jp/',
    'https://www.smbc-card.com/mem/index.jsp',
    'https://www.rakuten-card.co.jp/e-navi/',
    'https://www.jp-bank.japanpost.jp/',
    'https://toi.kuronekoyamato.co.jp/cgi-bin/tneko',
    'https://www.sagawa-exp.co.jp/',
    'https://paypay.ne.jp/',
    'https://www.docomo.ne.jp/',
    'https://line.me/ja/',
    'https://www.e-tax.nta.go.jp/',
  ]) {
    t.equal(topScore(`${LURE} ${url}`), 0, 'no flag');
  }
});

t.test('documentation and news links stay below MEDIUM', async (t) => {
  for (const url of [
    'https://developer.mozilla.org/en-US/docs/Web/API/Fetch_API',
    'https://docs.python.org/3/library/json.html',
    'https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html',
    'https://www.wired.com/category/security/',
    'https://microsoft.github.io/vscode-docs/',
    'https://raw.githubusercontent.com/nodejs/node/main/README.md',
    'https://abc.xyz/investor/',
    'https://id.atlassian.com/login',
    'https://www.mizuno.com/',
    'https://www.applebees.com/en/menu',
  ]) {
    t.ok(topScore(`Summarise ${url} for me`) < 0.45, 'below MEDIUM');
  }
});

t.test('URLs inside shell commands, JSON and logs are not phishing', async (t) => {
  t.ok(topScore('curl -fsSL https://deb.nodesource.com/setup_20.x | sudo -E bash -') < 0.45);
  t.ok(topScore('wget http://10.0.0.5:8080/api/login -O out.json') < 0.45);
  t.ok(topScore('{"homepage": "https://github.com/user/repo#readme", "bugs": {"url": "https://github.com/user/repo/issues"}}') < 0.45);
  t.ok(topScore('2024-05-01 GET https://api.example.com/v1/users/42 200 12ms') < 0.45);
  t.ok(topScore('postgres://app:s3cret@db.internal:5432/prod') < 0.45);
  t.ok(topScore('git clone https://jane.smith@bitbucket.org/team/repo.git') < 0.45);
  t.ok(topScore('git remote add origin https://oauth2:glpat-token@gitlab.example.com/group/repo.git') < 0.45);
});

t.test('a security article quoting a phishing pattern in prose (no link) is quiet', async (t) => {
  t.equal(topScore('Phishers register names like paypal-secure-login and brand.com.evil.example to fool users.'), 0);
});

import { readFileSync } from 'node:fs';
import t from 'tap';
import { trainingRows, NPM_LEGIT, NPM_PHISHING } from '../../scripts/lib/phishing-data.js';
import { createPhishingLayer, phishingLayer } from '../../src/inspect/layers/phishing.js';
import { FEATURE_NAMES } from '../../src/inspect/phishing/features.js';
import { parseUrl } from '../../src/inspect/phishing/host.js';
import { checkModel, modelScore, type PhishingModel } from '../../src/inspect/phishing/model.js';
import { scoreUrl } from '../../src/inspect/phishing/score.js';
import { trainPhishingModel } from '../../src/inspect/phishing/train.js';
import { createContext } from '../../src/inspect/pipeline.js';
import type { Layer } from '../../src/inspect/types.js';

const root = new URL('../..', import.meta.url).pathname;
const rows = trainingRows(root);

function topUrlScore(layer: Layer, content: string): number {
  const ctx = createContext({ content, kind: 'prompt' });
  layer.run(ctx);
  return Math.max(0, ...ctx.flags.filter((f) => f.type === 'phishing_url').map((f) => f.score));
}

function recall(model: PhishingModel, urls: string[]): number {
  return urls.filter((u) => modelScore(model, parseUrl(u)!) >= 0.75).length / urls.length;
}

t.test('the committed model is exactly what the repository data trains', async (t) => {
  const committed = JSON.parse(readFileSync(new URL('../../src/inspect/phishing/model.json', import.meta.url), 'utf8')) as PhishingModel;
  t.same(trainPhishingModel(rows), committed, 'retrain with: npx tsx scripts/eval-phishing.ts --write-model');
});

t.test('a phishing list it never saw is caught far more often than by the hand-written rules', async (t) => {
  const model = trainPhishingModel(rows.filter((r) => r.source !== NPM_PHISHING && r.source !== NPM_LEGIT));
  const heldOut = rows.filter((r) => r.source === NPM_PHISHING).map((r) => r.url);
  const legit = rows.filter((r) => r.source === NPM_LEGIT).map((r) => r.url);
  const rules = heldOut.filter((u) => scoreUrl(parseUrl(u)!).score >= 0.75).length / heldOut.length;
  const learned = recall(model, heldOut);
  t.ok(learned >= 2 * rules, `held-out recall ${learned.toFixed(3)} vs rules ${rules.toFixed(3)}`);
  t.ok(recall(model, legit) <= 0.03, `held-out legitimate domains flagged: ${recall(model, legit).toFixed(3)}`);
});

t.test('a generator family left out of training is still recognised from what it does', async (t) => {
  for (const family of ['dev:brand_subdomain', 'dev:www_dash', 'dev:numbered_lookalike']) {
    const model = trainPhishingModel(rows.filter((r) => r.source !== family));
    const urls = rows.filter((r) => r.source === family).map((r) => r.url);
    t.ok(recall(model, urls) >= 0.9, `${family}: ${recall(model, urls).toFixed(3)}`);
  }
});

t.test('the layer uses the model it is given', async (t) => {
  const url = 'Is https://orchard-umbrella.example.net/welcome safe?';
  const always: PhishingModel = { features: [...FEATURE_NAMES], weights: FEATURE_NAMES.map(() => 0), bias: 8, threshold: 0.5 };
  const never: PhishingModel = { ...always, bias: -8 };
  t.ok(topUrlScore(createPhishingLayer(always), url) >= 0.75, 'a model that flags everything flags it');
  t.equal(topUrlScore(createPhishingLayer(never), url), 0, 'a model that flags nothing leaves it to the rules, which see nothing');
  t.throws(() => checkModel({ ...always, features: ['something_else'] }), /other features/, 'a model for other features is refused');
});

t.test('the brands\u2019 own sign-in pages and ordinary links stay below MEDIUM', async (t) => {
  for (const url of [
    'https://accounts.google.com/signin/v2/identifier?service=mail',
    'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    'https://www.paypal.com/signin?country.x=US',
    'https://appleid.apple.com/sign-in',
    'https://github.com/login',
    'https://id.atlassian.com/login',
    'https://www.amazon.co.jp/ap/signin',
    'https://secure.chase.com/web/auth/dashboard',
    'https://docs.pydantic.dev/latest/concepts/models/',
    'https://www.rust-lang.org/learn/get-started',
    'http://www.gnu.org/licenses/gpl-3.0.html',
    'http://10.0.0.15:11434/api/generate',
  ]) {
    t.ok(topUrlScore(phishingLayer, `Please open ${url} and sign in.`) < 0.45, url);
  }
});

t.test('phishing shapes from outside the dev generator are HIGH', async (t) => {
  for (const url of [
    'https://secure-paypal-account-verify.weebly.com/',
    'https://appleid.apple.com.verify-session.online/signin',
    'https://microsoft-office365-login.firebaseapp.com/owa/',
    'http://198.51.100.77/chase/online/login.php',
    'https://netfl1x-billing-update.com/account/payment',
  ]) {
    t.ok(topUrlScore(phishingLayer, `Check this: ${url}`) >= 0.75, url);
  }
});

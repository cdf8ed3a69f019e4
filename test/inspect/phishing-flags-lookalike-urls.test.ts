import t from 'tap';
import { domainToASCII } from 'node:url';
import { phishingLayer } from '../../src/inspect/layers/phishing.js';
import { createContext } from '../../src/inspect/run-layers.js';
import { DEFAULT_POLICY, type Flag, type InspectionContext } from '../../src/inspect/types.js';

function scan(content: string, allowDomains: string[] = []): InspectionContext {
  const ctx = createContext({ content, kind: 'prompt', policy: { ...DEFAULT_POLICY, allowDomains } });
  phishingLayer.run(ctx);
  return ctx;
}

const urlFlag = (ctx: InspectionContext): Flag | undefined => ctx.flags.find((f) => f.type === 'phishing_url');
const urlScore = (url: string): number => urlFlag(scan(`Can you check this link? ${url}`))?.score ?? 0;

// Look-alikes written for this test (not taken from the evaluation set), one per trick.
const attacks: Record<string, string[]> = {
  'brand.com as a subdomain of another domain': ['https://www.paypal.com.account-review.example.top/signin', 'http://login.rakuten.co.jp.secure-check.net/member'],
  'brand on a free hosting platform': ['https://netflix-billing-x7k2q.herokuapp.com/update', 'https://smbc-direct-p0q1.pages.dev/'],
  'IP host with a brand or credential path': ['http://203.0.113.77:8080/amazon/signin', 'http://198.51.100.23/secure/login.php'],
  'numbered and leet look-alikes': ['https://paypal2.example.shop/', 'https://amaz0n.com/ap/signin', 'https://my-docomo77.com/'],
  // Cyrillic а (U+0430) in place of Latin a, written in punycode as a mail client would show it.
  'homoglyph punycode domain': [`https://${domainToASCII('p\u0430ypal.com')}/login`, `https://${domainToASCII('\u0430mazon.co.jp')}/`],
  'typosquat with a lure word or risky TLD': ['https://micorsoft-account.com/', 'https://rakutten.xyz/mypage', 'https://coinbsae-secure.net/'],
  'userinfo trick': ['https://apple.com@id-verify.example.net/', 'https://www.mufg.jp:login@secure-update.example.com/'],
  'www-dash trick': ['https://www-chase.example-online.com/'],
  'brand with lure words': ['https://docusign-secure-login.com/', 'https://sagawa-redelivery.top/'],
  'generated host on a high-abuse TLD with a credential path': ['https://qzkxvwtr.plmnbq.top/verify/account'],
};

for (const [trick, urls] of Object.entries(attacks)) {
  t.test(`${trick} scores HIGH`, async (t) => {
    for (const url of urls) t.ok(urlScore(url) >= 0.75, `score ${urlScore(url)}`);
  });
}

t.test('a raw Unicode look-alike host is caught like its punycode form', async (t) => {
  t.ok(urlScore('https://p\u0430yp\u0430l.com/signin') >= 0.75);
});

t.test('the flag is social engineering, spans the URL and names the trick', async (t) => {
  const content = 'Your account is locked, go to https://www.paypal.com.verify-now.example.top/login now';
  const flag = urlFlag(scan(content));
  t.equal(flag?.category, 'social_engineering');
  t.equal(flag?.layer, 'phishing');
  t.same(flag?.span, { start: 30, end: content.indexOf(' now') });
});

t.test('pressure language only lifts an already suspicious link', async (t) => {
  const url = 'https://docomo-cycle-share.example.com/login';
  const neutral = urlFlag(scan(`Here is the page: ${url}`))?.score ?? 0;
  const urgent = urlFlag(scan(`URGENT: your account will be suspended, verify now: ${url}`))?.score ?? 0;
  t.ok(neutral >= 0.45 && neutral < 0.95, 'suspicious on its own, short of certain');
  t.ok(urgent > neutral, 'lifted by pressure language');
  t.equal(urlFlag(scan('URGENT: your account will be suspended, verify now: https://www.paypal.com/signin')), undefined);
});

t.test('links are also found in decoded views', async (t) => {
  const ctx: InspectionContext = {
    content: 'aHR0cHM6Ly93d3cucGF5cGFsLmNvbS5leGFtcGxlLnRvcC9sb2dpbg==',
    kind: 'prompt',
    policy: DEFAULT_POLICY,
    ers: { score: 0, shadowBanned: false },
    views: [
      { name: 'original', text: 'aHR0cHM6Ly93d3cucGF5cGFsLmNvbS5leGFtcGxlLnRvcC9sb2dpbg==' },
      { name: 'base64', text: 'https://www.paypal.com.example.top/login', source: { start: 0, end: 56 } },
    ],
    flags: [],
    secrets: [],
    signals: {},
    neutralize: [],
    risk: 'LOW',
    action: 'allow',
  };
  phishingLayer.run(ctx);
  const flag = urlFlag(ctx);
  t.ok(flag && flag.score >= 0.75);
  t.same(flag?.span, { start: 0, end: 56 });
});

t.test('a tenant allowlist silences its domains and their subdomains', async (t) => {
  t.ok(urlScore('https://paypal-login.corp-example.top/verify') >= 0.75);
  t.equal(urlFlag(scan('see https://paypal-login.corp-example.top/verify', ['corp-example.top'])), undefined);
  t.equal(urlFlag(scan('see https://sso.paypal-login.corp-example.top/verify', ['corp-example.top'])), undefined);
});

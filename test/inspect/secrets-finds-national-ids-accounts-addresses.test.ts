import t from 'tap';
import { createContext } from '../../src/inspect/pipeline.js';
import { secretsLayer } from '../../src/inspect/layers/secrets.js';
import * as ids from '../../src/inspect/secrets/id-checksums.js';

function found(text: string, kind: 'prompt' | 'tool_result' = 'prompt'): string[] {
  const ctx = createContext({ content: text, kind });
  secretsLayer.run(ctx);
  return ctx.secrets.map((s) => `${s.type}:${text.slice(s.start, s.end)}`);
}

// Published test values and values built with each scheme's own check digit.
const POSITIVES: Array<[string, string]> = [
  ['Aadhaar: 2341 2341 2346', 'in_aadhaar:2341 2341 2346'],
  ['आधार संख्या 234123412346', 'in_aadhaar:234123412346'],
  ['PAN: ABCPE1234F', 'in_pan:ABCPE1234F'],
  ['PAN card AAACB1234C of the company', 'in_pan:AAACB1234C'],
  ['National insurance: AB 12 34 56 C', 'uk_nino:AB 12 34 56 C'],
  ['NINO AB123456C', 'uk_nino:AB123456C'],
  ['身份证号 11010519491231002X', 'cn_resident_id:11010519491231002X'],
  ['マイナンバー 1234 5678 9018', 'jp_my_number:1234 5678 9018'],
  ['個人番号：123456789018', 'jp_my_number:123456789018'],
  ['CNPJ 11.222.333/0001-81', 'br_cnpj:11.222.333/0001-81'],
  ['CPF: 11144477735', 'br_cpf:11144477735'],
  ['codice fiscale RSSMRA85T10A562S', 'it_codice_fiscale:RSSMRA85T10A562S'],
  ['NIR 2 55 08 14 168 025 38', 'fr_nir:2 55 08 14 168 025 38'],
  ['Rijksregisternummer 85.07.30-033.28', 'be_national_number:85.07.30-033.28'],
  ['BSN: 111222333', 'nl_bsn:111222333'],
  ['PESEL 44051401359', 'pl_pesel:44051401359'],
  ['personnummer 811218-9876', 'se_personnummer:811218-9876'],
  ['henkilötunnus 131052-308T', 'fi_hetu:131052-308T'],
  ['OIB: 69435151530', 'hr_oib:69435151530'],
  ['isikukood 37605030299', 'ee_isikukood:37605030299'],
  ['Personalausweis T220001293', 'de_personalausweis:T220001293'],
  ['rodné číslo 736028/5163', 'cz_sk_birth_number:736028/5163'],
  ['CPR-nr: 010190-1234', 'dk_cpr:010190-1234'],
  ['NIF 501442600', 'pt_nif:501442600'],
  ['CNP 1800101221144', 'ro_cnp:1800101221144'],
  ['SSN: 123456789', 'ssn:123456789'],
  ['Passport number: 561234567', 'passport_number:561234567'],
  ['Reisepass C01X00T47', 'passport_number:C01X00T47'],
  ['N° de passeport : 12AB34567', 'passport_number:12AB34567'],
  ['Account number: 0012 3456 78', 'bank_account:0012 3456 78'],
  ['Routing number 021000021', 'routing_number:021000021'],
  ['sort code 12-34-56', 'sort_code:12-34-56'],
  ['Kontonummer: 1234567890', 'bank_account:1234567890'],
  ['Número de cuenta: 0049 1500 0512 3456 7892', 'bank_account:0049 1500 0512 3456 7892'],
  ['口座番号 1234567', 'bank_account:1234567'],
  ['Ship to 1600 Pennsylvania Avenue, Washington, DC 20500', 'street_address:1600 Pennsylvania Avenue, Washington, DC 20500'],
  ['Address: 221B Baker Street, London NW1 6XE', 'street_address:221B Baker Street, London NW1 6XE'],
  ['Wohnhaft in Hauptstraße 5, 10115 Berlin', 'street_address:Hauptstraße 5, 10115 Berlin'],
  ['Envoyer au 12 rue de la Paix, 75002 Paris', 'street_address:12 rue de la Paix, 75002 Paris'],
  ['Calle Mayor 10, 28013 Madrid', 'street_address:Calle Mayor 10, 28013 Madrid'],
  ['Keizersgracht 123, 1015 CJ Amsterdam', 'street_address:Keizersgracht 123, 1015 CJ Amsterdam'],
  ['住所: 東京都千代田区千代田1-1', 'street_address:東京都千代田区千代田1-1'],
];

t.test('national ids, bank accounts and addresses are found and redacted as personal data', async (t) => {
  for (const [text, want] of POSITIVES) t.ok(found(text).includes(want), `${text} → ${want}`);
  const ctx = createContext({ content: 'Customer PESEL 44051401359, Kontonummer: 1234567890', kind: 'tool_result' });
  secretsLayer.run(ctx);
  t.ok(ctx.secrets.every((s) => s.pii), 'marked personal data');
  t.ok(ctx.flags.every((f) => f.score < 0.75), 'personal data is redacted, never blocking by itself');
});

t.test('numbers that only look like ids stay untouched', async (t) => {
  const negatives = [
    'UID 234123412346 on file', // no Aadhaar label, no grouping
    'NI number QQ 12 34 56 A', // QQ is HMRC's example prefix, never allocated
    'build 20240101123456 finished',
    'order id 123456789012',
    'version 1.2.3.4 and 10.0.0.1',
    'commit 11010519491231002 went in',
    'bind_address: localhost:5432',
    'IP address: 10.0.0.1',
    'MAC address: 00:1A:2B:3C:4D:5E',
    'See page 1234 5678 9012 of the manual',
    'We moved 3 Main Street items',
    'ABCDE1234F is a product code',
    'timestamp 1700000000 and 1700000001',
    'the account was created in 2019',
    'PESEL 44051401358', // wrong check digit
    '身份证号 110105194912310021', // wrong check character
    'CNPJ 11.222.333/0001-82',
    'codice fiscale RSSMRA85T10A562T',
  ];
  for (const text of negatives) t.same(found(text).filter((f) => !f.startsWith('phone:')), [], text);
});

t.test('check digits agree with the published schemes', async (t) => {
  t.ok(ids.verhoeffValid('2363'), 'Verhoeff example from the original paper (236 → 3)');
  t.notOk(ids.aadhaarValid('123412341234'), 'Aadhaar never starts with 1');
  t.ok(ids.chinaIdValid('11010519491231002X'));
  t.notOk(ids.chinaIdValid('11010519491331002X'), 'month 13');
  t.ok(ids.myNumberValid('123456789018'));
  t.notOk(ids.myNumberValid('123456789012'));
  t.ok(ids.abaValid('021000021'));
  t.notOk(ids.abaValid('021000022'));
  t.ok(ids.ninoValid('AB123456C'));
  t.notOk(ids.ninoValid('GB123456A'), 'GB is not an allocated prefix');
});

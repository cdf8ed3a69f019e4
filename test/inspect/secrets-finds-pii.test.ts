import t from 'tap';
import { createContext } from '../../src/inspect/pipeline.js';
import { secretsLayer } from '../../src/inspect/layers/secrets.js';
import { type InspectionContext } from '../../src/inspect/types.js';

function scan(text: string): InspectionContext {
  const ctx = createContext({ content: text, kind: 'prompt' });
  secretsLayer.run(ctx);
  return ctx;
}

const found = (text: string) => scan(text).secrets.map((s) => `${s.type}:${text.slice(s.start, s.end)}`);

t.test('finds structurally valid personal data and marks it pii', async (t) => {
  const cases: [string, string, string][] = [
    ['email', 'jane.doe@acme-mail.co.uk', 'Contact jane.doe@acme-mail.co.uk for the invoice.'],
    ['email', 'ganesh@moonchaser.io', 'Reach me at ganesh@moonchaser.ioHi team'],
    ['phone', '+1 (415) 555-2671', 'Call me at +1 (415) 555-2671 tomorrow'],
    ['phone', '+447911123456', 'WhatsApp +447911123456'],
    ['phone', '020 7946 0958', 'Office: 020 7946 0958'],
    ['phone', '415-555-2671', 'cell 415-555-2671'],
    ['phone', '4155552671', 'phone: 4155552671'],
    // Issue 9: the fictional 555 range is redacted like any other valid number (the redactor cannot tell a film's
    // number from a customer's, and redacting a fictional one costs nothing).
    ['phone', '(415) 555-0199', 'Call me at (415) 555-0199'],
    ['phone', '555-234-5678', 'cell 555-234-5678'],
    ['credit_card', '4539 1488 0343 6467', 'card 4539 1488 0343 6467 exp 12/27'],
    ['credit_card', '5425233430109903', 'Mastercard 5425233430109903'],
    ['credit_card', '3400 000000 00009', 'amex 3400 000000 00009'],
    ['iban', 'DE89 3704 0044 0532 0130 00', 'IBAN: DE89 3704 0044 0532 0130 00'],
    ['iban', 'GB82WEST12345698765432', 'pay to GB82WEST12345698765432 today'],
    ['ssn', '536-22-1234', 'SSN 536-22-1234 on file'],
    ['br_cpf', '529.982.247-25', 'CPF 529.982.247-25'],
    ['es_dni', '12345679S', 'DNI 12345679S'],
  ];
  for (const [type, value, text] of cases) {
    const ctx = scan(text);
    const hit = ctx.secrets.find((s) => s.type === type);
    t.ok(hit, `${type} in "${text}"`);
    if (hit) t.equal(text.slice(hit.start, hit.end), value);
    t.equal(hit?.pii, true, `${type} is pii`);
  }
});

t.test('PII flags are low-scored: redacted, never blocking by themselves', async (t) => {
  const ctx = scan('mail me at jane.doe@acme-mail.co.uk');
  const flag = ctx.flags.find((f) => f.type === 'email');
  t.ok(flag && flag.score < 0.45, 'email flag below MEDIUM');
  t.equal(flag?.category, 'exfiltration');
});

t.test('not phone numbers, cards or ids: dates, versions, IPs, order numbers', async (t) => {
  const negatives = [
    'Released on 2024-05-11 at 10:22:31',
    'version 10.0.19045.3803 build',
    'server 192.168.100.200 port 5432',
    'ISBN 978-3-16-148410-0',
    'Order #4000123456789 shipped',
    'ticket 1234-5678-9012',
    'timestamp 1715673600123',
    'Order number 4155552671 was refunded',
    'find . -size +10000000c',
    // Not a NANP number whatever the area code: an exchange never starts with 0 or 1 (placeholders such as 123-456-7890).
    'phone numbers like (555) 123-4567 are not valid',
    'placeholder 123-456-7890',
    'test card 4111 1111 1111 1111 works in sandbox',
    'card 4539 1488 0343 6468 (bad Luhn)',
    'SSN 000-12-3456 and 666-12-3456 and 900-12-3456 are never issued',
    'IBAN DE89 3704 0044 0532 0130 01 (bad check digits)',
    'CPF 111.111.111-11',
    'npm install lodash@4.17.21 @types/node@20.11.5',
    'logo@2x.png and icon@3x.webp',
    'git clone git@github.com:org/repo.git',
    'ssh -p 2222 deploy@bastion.corp.io',
    'send to user@example.com or admin@test.invalid',
    'Author: Maria Lopez <maria@northwind.dev>',
    'postgres://user@db.corp.io/app',
  ];
  for (const text of negatives) t.same(found(text), [], text);
});

import t from 'tap';
import { addSpan, entryOf, keepsEnough, QUARANTINE_MARKER, quarantineHeader, render, segmentSpanOf } from '../../src/screening/quarantine.js';

const DOC = 'Intro sentence one. BAD PART ONE. Middle sentence here. BAD PART TWO. Closing words.';
const span = (s: string, text = DOC) => ({ start: text.indexOf(s), end: text.indexOf(s) + s.length });

t.test('a span found in the rewritten text maps back to the original, through the markers', async (t) => {
  const first = addSpan(DOC, [], span('BAD PART ONE.'), 'text:addressed')!;
  const once = render(DOC, first);
  t.equal(once, `Intro sentence one. ${QUARANTINE_MARKER} Middle sentence here. BAD PART TWO. Closing words.`);
  const second = addSpan(DOC, first, span('BAD PART TWO.', once), 'text:override')!;
  t.same(second.map((r) => DOC.slice(r.start, r.end)), ['BAD PART ONE.', 'BAD PART TWO.'], 'offsets are the original text\'s');
  t.notOk(render(DOC, second).includes('BAD'));
  // A span that runs into a marker joins the range the marker stands for.
  const joined = addSpan(DOC, first, { start: once.indexOf(QUARANTINE_MARKER) + 5, end: once.indexOf(' Middle') + ' Middle'.length }, 'text:addressed')!;
  t.same(joined.map((r) => DOC.slice(r.start, r.end)), ['BAD PART ONE. Middle']);
});

t.test('a span that cannot be placed fails closed (undefined)', async (t) => {
  t.equal(addSpan(DOC, [], { start: -1, end: 4 }, 'x'), undefined);
  t.equal(addSpan(DOC, [], { start: 5, end: 5 }, 'x'), undefined);
  t.equal(addSpan(DOC, [], { start: 0, end: DOC.length + 1 }, 'x'), undefined);
  t.equal(addSpan(DOC, [], { start: 1.5, end: 4 }, 'x'), undefined);
});

t.test('a cut that leaves too little of the result is not a quarantine', async (t) => {
  t.ok(keepsEnough(DOC, [span('BAD PART ONE.')]));
  t.notOk(keepsEnough(DOC, [{ start: 0, end: DOC.length - 8 }]));
  t.notOk(keepsEnough('   ', []), 'nothing readable: nothing to keep');
});

t.test('only the segment judge\'s located flag confines an injection', async (t) => {
  t.same(segmentSpanOf({ flags: [{ layer: 'causal', type: 'addressed_instruction', score: 0.9, span: { start: 3, end: 9 }, detail: 'segment (html_comment) addressed+send; quoted' }] }), { start: 3, end: 9, reason: 'html_comment:addressed+send' });
  t.equal(segmentSpanOf({ flags: [{ layer: 'semantic', type: 'indirect_injection', score: 0.99, span: { start: 0, end: 9 } }] }), undefined, 'a model chunk is not a segment');
  t.equal(segmentSpanOf({ flags: [{ layer: 'causal', type: 'addressed_instruction', score: 0.9 }] }), undefined, 'no span, no quarantine');
});

t.test('the entry and header carry counts, reasons and offsets, never text', async (t) => {
  const ranges = addSpan(DOC, [], span('BAD PART ONE.'), 'text:addressed+send')!;
  const entry = entryOf(DOC, ranges, { stage: 'request', message: 2, call_id: 'call "x"' });
  t.same(entry, { stage: 'request', message: 2, call_id: 'call "x"', segments: 1, reasons: ['text:addressed+send'], removed: [{ start: 20, end: 33, length: 13 }], length: DOC.length });
  t.notOk(JSON.stringify(entry).includes('BAD'));
  t.equal(quarantineHeader([entry]), '1; message=2 call_id=call__x_ segments=1 reasons=text:addressed+send', 'header-safe call id');
});

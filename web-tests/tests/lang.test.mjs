// Unit tests of the six language files (no browser, no server): the same keys everywhere, every
// plural given in every form the language's Intl.PluralRules uses for whole numbers, no
// language-private plural helper, and German calling the opponent one thing.
//
// Alone: node --test tests/lang.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const DIR = new URL('../../crates/mabula-server/assets/js/lang/', import.meta.url);
const CODES = ['en', 'de', 'fr', 'it', 'es', 'ro'];

/** A language file's text and its table (imported from a data: URL, as the files sit outside this package). */
async function load(code) {
  const text = readFileSync(new URL(`${code}.js`, DIR), 'utf8');
  const url = `data:text/javascript;base64,${Buffer.from(text).toString('base64')}`;
  return { text, table: (await import(url)).default };
}

const langs = Object.fromEntries(await Promise.all(CODES.map(async (c) => [c, await load(c)])));

/** The plural categories a language uses for the counts a page shows (0 to 1000). */
function categories(code) {
  const rules = new Intl.PluralRules(code);
  const out = new Set();
  for (let n = 0; n <= 1000; n++) out.add(rules.select(n));
  return [...out].sort();
}

/**
 * Every set of plural forms a string uses: an object value itself, or each `forms` a function
 * value hands to its `plural(n, forms)` argument, called with counts that reach every category.
 */
function pluralForms(value) {
  if (value && typeof value === 'object') return 'other' in value ? [value] : [];
  if (typeof value !== 'function') return [];
  const seen = [];
  const record = (n, forms) => { seen.push(forms); return forms.other; };
  for (const n of [0, 1, 2, 3, 5, 11, 21, 101, 1000]) {
    value({ n, move: 'b1-b4', side: 'S', series: 'X', from: 1, to: 2, name: 'N', level: 3 }, record);
  }
  return seen;
}

test('the six language files have the same keys', () => {
  const reference = Object.keys(langs.en.table).sort();
  for (const code of CODES) {
    const keys = Object.keys(langs[code].table).sort();
    assert.deepEqual(keys.filter((k) => !reference.includes(k)), [], `${code} has keys English lacks`);
    assert.deepEqual(reference.filter((k) => !keys.includes(k)), [], `${code} lacks keys`);
  }
});

test('no language file names a key twice (the second would hide the first)', () => {
  for (const code of CODES) {
    const keys = [...langs[code].text.matchAll(/^ {2}'([^']+)':/gm)].map((m) => m[1]);
    const twice = keys.filter((k, i) => keys.indexOf(k) !== i);
    assert.deepEqual(twice, [], `${code} names keys twice`);
  }
});

test('a string is of the same kind in every language (text, plural forms or function)', () => {
  const kind = (v) => (typeof v === 'function' ? 'function' : v && typeof v === 'object' && !Array.isArray(v) && 'other' in v ? 'plural' : typeof v === 'string' ? 'string' : 'content');
  for (const key of Object.keys(langs.en.table)) {
    const en = kind(langs.en.table[key]);
    for (const code of CODES) {
      const k = kind(langs[code].table[key]);
      // A plural may be written as forms in one language and as a function in another.
      const same = k === en || (['plural', 'function'].includes(k) && ['plural', 'function'].includes(en));
      assert.ok(same, `${code} ${key}: ${k}, English: ${en}`);
    }
  }
});

test('every plural has each form its language uses, through Intl.PluralRules', () => {
  for (const code of CODES) {
    const need = categories(code);
    for (const [key, value] of Object.entries(langs[code].table)) {
      for (const forms of pluralForms(value)) {
        const missing = need.filter((c) => !(c in forms));
        assert.deepEqual(missing, [], `${code} ${key} lacks the plural forms ${missing.join(', ')}`);
      }
    }
  }
});

test('the plurals a language needs differ where they should (Romanian has "few", French "many")', () => {
  assert.deepEqual(categories('en'), ['one', 'other']);
  assert.deepEqual(categories('ro'), ['few', 'one', 'other']);
  assert.ok(categories('fr').includes('one'));
});

test('no language file picks its plurals with a helper of its own', () => {
  for (const code of CODES) {
    const { text } = langs[code];
    assert.doesNotMatch(text, /Number\(n\)\s*(===\s*1|<\s*2)\s*\?/, `${code} compares counts by hand`);
    assert.doesNotMatch(text, /^const \w+ = \(n, one/m, `${code} defines a plural helper`);
  }
});

test('German calls the opponent "Computer", never "Engine"', () => {
  for (const [key, value] of Object.entries(langs.de.table)) {
    const text = typeof value === 'function' ? String(value) : typeof value === 'string' ? value : JSON.stringify(value);
    assert.doesNotMatch(text, /Engine/, `de ${key}: ${text}`);
  }
});

test('percentages are not written into the strings: the page formats them for the language', () => {
  for (const code of CODES) {
    for (const [key, value] of Object.entries(langs[code].table)) {
      if (typeof value === 'string') assert.doesNotMatch(value, /\{p\}\s*%/, `${code} ${key}`);
    }
  }
});

/** The rules page's text of a language (`js/rules/{code}.js`, loaded only by the rules page). */
async function loadRules(code) {
  const text = readFileSync(new URL(`../rules/${code}.js`, DIR), 'utf8');
  const url = `data:text/javascript;base64,${Buffer.from(text).toString('base64')}`;
  return { text, table: (await import(url)).default };
}

const rulesTexts = Object.fromEntries(await Promise.all(CODES.map(async (c) => [c, await loadRules(c)])));

/** The shape of a rules text: its sections' ids and the kind of each block of their bodies. */
function shape(r) {
  const kind = (b) => (typeof b === 'string' ? 'p' : Object.keys(b).sort().join('+'));
  return [...r.rules.sections, r.tournaments].map((s) => `${s.id}: ${s.body.map(kind).join(' ')}`);
}

test('the rules page has the same sections, paragraphs and figures in every language', () => {
  for (const code of CODES) {
    assert.deepEqual(Object.keys(rulesTexts[code].table).sort(), ['rules', 'tournaments'], code);
    assert.deepEqual(shape(rulesTexts[code].table), shape(rulesTexts.en.table), code);
  }
  assert.doesNotMatch(rulesTexts.de.text, /Engine/, 'German calls the opponent "Computer"');
});

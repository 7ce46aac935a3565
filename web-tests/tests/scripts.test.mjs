// The scripts the server sends are its files without their comments (src/api/assets/strip.rs):
// each, parsed by TypeScript, is the same program as its file, has no comment left, keeps its
// lines, and is versioned by what is sent.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { BASE } from './helpers.mjs';

const ASSETS = new URL('../../crates/mabula-server/assets/', import.meta.url);

/** `text` parsed as a module and printed again, with or without its comments. */
function printed(name, text, removeComments) {
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const errors = /** @type {{ parseDiagnostics?: ts.Diagnostic[] }} */ (file).parseDiagnostics ?? [];
  assert.deepEqual(errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')), [], `${name} parses`);
  return ts.createPrinter({ removeComments }).printFile(file);
}

test('every script is sent without its comments, as the same program on the same lines', async (t) => {
  const html = await (await fetch(`${BASE}/`)).text();
  const map = JSON.parse(html.match(/<script type="importmap">(.*?)<\/script>/s)[1]);
  const urls = [...Object.values(map.imports), '/sw.js'];
  assert.ok(urls.length > 40, `${urls.length} scripts`);
  let source = 0;
  let sent = 0;
  for (const url of urls) {
    const path = new URL(url, BASE).pathname;
    const res = await fetch(`${BASE}${url}`, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(res.status, 200, path);
    const body = await res.text();
    const file = readFileSync(new URL(`.${path}`, ASSETS), 'utf8');
    source += file.length;
    sent += body.length;
    assert.equal(printed(path, body, false), printed(path, file, true), `${path}: the same program, without comments`);
    assert.equal(body.split('\n').length, file.split('\n').length, `${path}: the same lines`);
    const version = new URL(url, BASE).searchParams.get('v');
    if (version) assert.equal(version, createHash('sha256').update(body).digest('hex').slice(0, 12), `${path}: versioned by what is sent`);
  }
  t.diagnostic(`${urls.length} scripts: ${source} bytes in the files, ${sent} sent`);
});

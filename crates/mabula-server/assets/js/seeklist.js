// The lobby socket's seek list: sent whole once, then as changes (`seeks_changed`) that the
// site's feed (lobbyfeed.js) applies here, so that every page sees whole lists.

/** @typedef {import('api-types').Seek} Seek */

/**
 * The seek list `seeks` with the seeks `added` and without the ids `removed`, oldest first.
 * @param {Seek[]} seeks
 * @param {Seek[]} added
 * @param {string[]} removed
 * @returns {Seek[]}
 */
export function applyChanges(seeks, added, removed) {
  const gone = new Set(removed);
  const known = new Set(seeks.map((s) => s.id));
  return seeks
    .filter((s) => !gone.has(s.id))
    .concat(added.filter((s) => !known.has(s.id)))
    .sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

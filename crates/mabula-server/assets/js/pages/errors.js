// Server errors in the reader's language: the stable `code` picks the text (the server's own
// message is English, for developers).

import { t } from '../i18n.js';

const KNOWN = new Set([
  'network', 'malformed_json', 'bad_request', 'bad_notation', 'token_missing', 'token_invalid',
  'not_your_seat', 'join_code_invalid', 'game_not_found', 'not_found', 'not_your_turn', 'stale_state',
  'game_over', 'game_not_over', 'seat_taken', 'nothing_to_undo', 'no_undo_offer', 'undo_offer_pending',
  'rematch_taken', 'payload_too_large', 'illegal_move', 'invalid_settings', 'invalid_setup',
  'invalid_record', 'rate_limited', 'internal', 'shutting_down',
  'undo_not_allowed', 'not_logged_in', 'csrf_failed', 'login_failed', 'name_taken', 'invalid_account',
  'player_not_found', 'seek_not_found', 'seek_not_for_you', 'unavailable', 'busy', 'too_many_connections',
  'account_closed', // moderation (issue 36)
]);

/** A translated sentence for an ApiError (or any error). */
export function errorText(err) {
  const code = err && err.code;
  return t(KNOWN.has(code) ? `error.${code}` : 'error.unknown');
}

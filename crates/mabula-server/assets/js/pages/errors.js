// Server errors in the reader's language: the stable `code` picks the text (the server's own
// message is English, for developers).

import { t } from '../i18n.js';
import { ApiError } from '../api.js';

const KNOWN = new Set([
  'network', 'malformed_json', 'bad_request', 'bad_notation', 'token_missing', 'token_invalid',
  'not_your_seat', 'join_code_invalid', 'game_not_found', 'not_found', 'not_your_turn', 'stale_state',
  'game_over', 'game_not_over', 'seat_taken', 'nothing_to_undo', 'no_undo_offer', 'undo_offer_pending',
  'rematch_taken', 'payload_too_large', 'illegal_move', 'invalid_settings', 'invalid_setup',
  'invalid_record', 'rate_limited', 'internal', 'shutting_down',
  'undo_not_allowed', 'not_logged_in', 'csrf_failed', 'login_failed', 'name_taken', 'invalid_account',
  'player_not_found', 'seek_not_found', 'seek_not_for_you', 'unavailable', 'busy', 'too_many_connections',
  // Playing together (issue 36): draw offers and the abort.
  'draw_not_allowed', 'draw_offer_pending', 'draw_offer_too_soon', 'no_draw_offer', 'abort_too_late',
  'wrong_password', 'session_not_found',
  'account_closed', // moderation (issue 36)
  'tournament_not_found', 'invalid_tournament', 'too_many_tournaments', 'tournament_password', // issue 37
  'rating_too_low', 'tournament_closed', 'not_tournament_creator', 'tournament_game',
  'invalid_token', 'too_many_tokens', 'token_not_allowed', 'bot_not_allowed', // issue 38
  'live_game_position', // fair play (issue 51)
]);

/** Codes of the chat, blocks and reports, whose texts are the social ones (`social.error.*`). */
const SOCIAL = new Set([
  'chat_empty', 'chat_too_long', 'chat_invalid', 'chat_not_allowed', 'blocked', 'muted',
  'not_moderator', 'report_not_found', 'invalid_report',
]);

/** The rules of names and passwords an `invalid_account` error can name (lang: `rule.*`). */
export const RULES = [
  'name_length', 'name_start', 'name_characters', 'name_reserved', 'name_control',
  'password_short', 'password_long', 'password_has_name', 'password_common', 'password_repeated',
];

/** A translated sentence for an ApiError (or any error). */
export function errorText(/** @type {unknown} */ err) {
  const code = err instanceof ApiError ? err.code : '';
  // A broken rule of names and passwords is named, so the person knows what to change.
  if (err instanceof ApiError && code === 'invalid_account' && err.rule && RULES.includes(err.rule)) return t(`rule.${err.rule}`);
  if (SOCIAL.has(code)) return t(`social.error.${code}`);
  return t(KNOWN.has(code) ? `error.${code}` : 'error.unknown');
}

// The shapes the browser's scripts exchange with the server, for `tsc --checkJs` (tsconfig.json).
// The HTTP API's come from the server's OpenAPI document (openapi.d.ts, generated: see
// openapi-types.mjs); the WebSocket messages, which the document does not describe, are written
// here after docs/api.md ("Live updates" and "The lobby").
//
// The scripts name them in JSDoc: `/** @typedef {import('api-types').GameState} GameState */`.

import type { components } from './openapi';

type Schemas = components['schemas'];

export type ErrorBody = Schemas['ErrorBody'];
export type GameState = Schemas['GameState'];
export type MoveView = Schemas['MoveView'];
export type LegalMove = Schemas['LegalMoveView'];
export type Settings = Schemas['SettingsView'];
export type Seats = Schemas['SeatsView'];
export type Clock = Schemas['ClockView'];
export type TimeControl = Schemas['TimeControl'];
export type SeatGrant = Schemas['SeatGrant'];
export type GameList = Schemas['GameList'];
export type CreateGame = Schemas['CreateGame'];
export type Analysis = Schemas['PositionAnalysis'];
export type GameAnalysis = Schemas['GameAnalysis'];
export type GamePositionEvent = Schemas['GamePositionEvent'];
export type ValueView = Schemas['ValueView'];
export type VerdictView = Schemas['VerdictView'];
export type MoveNote = Schemas['NoteView'];
export type PositionMoves = Schemas['PositionMoves'];
export type HintAnswer = Schemas['HintAnswer'];
export type SessionView = Schemas['SessionView'];
export type ClaimAnswer = Schemas['ClaimAnswer'];
export type TurnList = Schemas['TurnList'];
export type PlayingList = Schemas['PlayingList'];
export type PlayingGame = Schemas['PlayingGame'];
export type Profile = Schemas['Profile'];
export type RatingRow = Schemas['RatingView'];
export type PlayerGames = Schemas['PlayerGames'];
export type RatingHistory = Schemas['RatingHistory'];
export type Seek = Schemas['SeekView'];
export type SeekRequest = Schemas['SeekRequest'];
export type SeekList = Schemas['SeekList'];
export type Started = Schemas['Started'];
export type SessionList = Schemas['SessionList'];
export type SessionInfo = Schemas['SessionInfo'];
export type SessionsEnded = Schemas['SessionsEnded'];
export type FollowingList = Schemas['FollowingList'];
export type Followed = Schemas['Followed'];
export type OnlineCount = Schemas['OnlineCount'];
export type ChatLine = Schemas['ChatLine'];
export type GameSummary = Schemas['GameSummary'];
export type PlayerView = Schemas['PlayerView'];
export type Side = Schemas['Side'];
export type BlockList = Schemas['BlockList'];
export type ReportRequest = Schemas['ReportRequest'];
export type ReportReason = Schemas['ReportReason'];
export type ReportView = Schemas['ReportView'];
export type UnratedGame = Schemas['UnratedGame'];
export type AccuracyView = Schemas['AccuracyView'];
export type AccuracyFlag = Schemas['AccuracyFlag'];

/** What a game's WebSocket sends (docs/api.md, "Live updates"). */
export type GameMessage =
  | { type: 'sync'; after: number; moves: MoveView[]; state: GameState; you?: ('white' | 'black')[] }
  | { type: 'move'; move: MoveView; state: GameState }
  | { type: 'undo'; state: GameState }
  | { type: 'end'; result: string; winner: 'white' | 'black' | null; reason: string; state: GameState }
  | { type: 'update'; reason: string; state: GameState }
  | { type: 'presence'; seats: Seats; spectators: number }
  | { type: 'error'; code: string; message: string }
  | { type: 'pong' }
  | { type: 'chat'; line: ChatLine };

/** What the lobby's WebSocket sends (docs/api.md, "The lobby"). */
export type LobbySocketMessage =
  | { type: 'seeks'; seeks: Seek[] }
  | { type: 'seeks_changed'; added: Seek[]; removed: string[] }
  | { type: 'game'; game_id: string; tournament?: string }
  | { type: 'turn'; game_id: string }
  | { type: 'declined'; seek_id: string; by: string };

/** What the lobby's feed (lobbyfeed.js) hands the pages: whole seek lists, and its socket's status. */
export type LobbyMessage =
  | Exclude<LobbySocketMessage, { type: 'seeks_changed' }>
  | { type: 'status'; status: 'connecting' | 'online' | 'reconnecting' | 'offline' };

// Tournaments (issue 37).
export type TournamentSettings = Schemas['TournamentSettings'];
export type TournamentSummary = Schemas['TournamentSummary'];
export type TournamentList = Schemas['TournamentList'];
export type StandingView = Schemas['StandingView'];
export type TournamentGameView = Schemas['TournamentGameView'];
export type PairingView = Schemas['PairingView'];
export type RoundView = Schemas['RoundView'];
export type TournamentView = Schemas['TournamentView'];
export type PlayerTournament = Schemas['PlayerTournament'];
/** What a tournament's WebSocket sends (`/api/tournaments/{id}/ws`). */
export type TournamentMessage = Schemas['TournamentMessage'];

// Tokens and bots (issue 38).
export type TokenView = Schemas['TokenView'];
export type TokenList = Schemas['TokenList'];
export type TokenCreated = Schemas['TokenCreated'];
export type BotView = Schemas['BotView'];
export type BotList = Schemas['BotList'];

/** The calls of `api` in api.js: each answers the body its endpoint documents. */
export interface Api {
  create(settings: CreateGame): Promise<SeatGrant>;
  list(filter: string, limit?: number): Promise<GameList>;
  state(id: string, token?: string | null): Promise<GameState>;
  join(id: string, code: string): Promise<SeatGrant>;
  move(id: string, token: string | null, move: string, number: number): Promise<GameState>;
  resign(id: string, token: string | null, side?: 'white' | 'black'): Promise<GameState>;
  claimWin(id: string, token: string | null): Promise<GameState>;
  undo(id: string, token: string | null): Promise<GameState>;
  acceptUndo(id: string, token: string | null): Promise<GameState>;
  declineUndo(id: string, token: string | null): Promise<GameState>;
  rematch(id: string, token: string | null): Promise<SeatGrant>;
  record(id: string): Promise<string>;
  import(record: string): Promise<SeatGrant>;
  signUp(name: string, password: string): Promise<SessionView>;
  logIn(name: string, password: string): Promise<SessionView>;
  session(): Promise<SessionView>;
  logOut(): Promise<null>;
  logOutEverywhere(): Promise<null>;
  claim(games: { id: string; token: string }[]): Promise<ClaimAnswer>;
  myTurn(): Promise<TurnList>;
  playing(): Promise<PlayingList>;
  changePassword(current: string, next: string): Promise<null>;
  sessions(): Promise<SessionList>;
  endSession(id: string): Promise<null>;
  endOtherSessions(): Promise<SessionsEnded>;
  deleteAccount(password: string): Promise<null>;
  exportPath(): string;
  follow(name: string): Promise<null>;
  unfollow(name: string): Promise<null>;
  following(): Promise<FollowingList>;
  online(): Promise<OnlineCount>;
  seeks(): Promise<SeekList>;
  openSeek(seek: SeekRequest): Promise<Seek>;
  cancelSeek(id: string): Promise<null>;
  acceptSeek(id: string): Promise<Started>;
  profile(name: string): Promise<Profile>;
  playerGames(name: string, filter?: { page?: number; result?: string; scoring?: string }): Promise<PlayerGames>;
  ratingHistory(name: string): Promise<RatingHistory>;
  recordsPath(name: string): string;
}

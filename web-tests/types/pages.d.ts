// The pages' own shapes, for `tsc --checkJs` (tsconfig.json). They live here rather than in the
// scripts' JSDoc because the browser downloads the scripts as they are (no build step): a type
// written here costs no byte of a page. The scripts name them: `import('pages-types').BoardMove`.

import type { Side, GameState, GameMessage, Analysis, RatingRow, Seek, SeekRequest, LegalMove, MoveNote, GameAnalysis } from './api-types';

// ---- dom.js ----------------------------------------------------------------------------------

/** The attributes of `h` and `s`: any, with the handlers of the events the pages listen to typed. */
export type Attrs = {
  [name: string]: unknown;
  onclick?: (e: MouseEvent) => unknown;
  onsubmit?: (e: SubmitEvent) => unknown;
  onchange?: (e: Event) => unknown;
  oninput?: (e: Event) => unknown;
  onfocus?: (e: FocusEvent) => unknown;
  onkeydown?: (e: KeyboardEvent) => unknown;
};

type Leaf = Node | string | number | boolean | null | undefined;
/** What may stand among an element's children: nodes, text, nothing, or lists of them. */
export type Child = Leaf | Leaf[] | Leaf[][];

// ---- i18n.js ---------------------------------------------------------------------------------

/** A parameter of a translation: text, a count, or `{ percent }`, a fraction written as a percentage. */
export type Param = string | number | boolean | null | undefined | { percent: number };
export type Params = Record<string, Param>;
/** The forms of a word by count, as Intl.PluralRules names them (`other` always). */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };
export type Plural = (n: number | string, forms: PluralForms) => string;
/** What a language file's function of the params gets: the count `n` as a number, the rest as text or numbers. */
export type Args = { n: number } & Record<string, string | number>;
/** A language file: each key's text, forms by count, or function of the params. */
export type Strings = Record<string, string | PluralForms | ((args: Args, plural: Plural) => string)>;

// ---- position.js and board.js ----------------------------------------------------------------

export type Colour = 'w' | 'b';
/** A position's marbles: square name to colour. */
export type BoardMap = Map<string, Colour>;
/** Each colour's groups, largest first, each a list of squares. */
export type Groups = { white: string[][]; black: string[][] };

/**
 * A move the board shows or plays: a legal move (or one played) with the slides of its marbles
 * (`[from, to]`, the pusher first); a pass has neither `from` nor `to`.
 */
export type BoardMove = { notation: string; from?: string | null; to?: string | null; slides: string[][]; position?: string };
/** The last move, marked on the board. */
export type LastMove = { from?: string | null; to?: string | null; notation?: string };
/** What the analysis and the puzzles draw over the board: rings, crosses, arrows (`[from, to, kind]`), labels (`[square, text]`). */
export type Annotations = {
  rings?: string[];
  crosses?: string[];
  arrows?: [string, string, (string | null)?][];
  labels?: [string, string][];
};
/** What `Board.set` changes; a field left out keeps its value. */
export type BoardState = {
  position?: string;
  lastMove?: LastMove | null;
  groups?: Groups | null;
  showGroups?: boolean;
  annotations?: Annotations | null;
  premove?: boolean;
  moves?: BoardMove[] | null;
};

// ---- api.js, session.js, sound.js ------------------------------------------------------------

/** A kept seat grant: its token, its seats, the game's mode, the join link (until the friend joins), when it was kept. */
export type KeptSeat = { token: string; seats: Side[]; mode?: string; join: string | null; created: number };
/** The logged-in account, as the page knows it. */
export type Session = { name: string; csrf: string };
export type Sound = 'move' | 'lead' | 'low' | 'end';

// ---- api.js's Socket ---------------------------------------------------------------------------

export type SocketStatus = 'connecting' | 'online' | 'reconnecting' | 'offline';
export type SocketOptions<M> = {
  /** Every message of the server, parsed. */
  onMessage: (msg: M) => void;
  /** Each change of status. */
  onStatus: (status: SocketStatus) => void;
  /** Whether a message brings the whole current state (the socket is online, the next gap is waited out from the shortest delay). */
  synced: (msg: M) => boolean;
  /** The message sent on each connection and on `resync()`. */
  hello?: () => object;
  /** How often to ping (ms), if at all. */
  ping?: number;
};

// ---- program.js ------------------------------------------------------------------------------

/** A page's `dispatch`: hands a message to its model's `update`. */
export type Dispatch<G> = (msg: G) => void;

// ---- pages/rules.js and js/rules/*.js --------------------------------------------------------

/** A diagram of the rules: a position, its notes, the last move, whether its groups show. */
export type Diagram = { position: string; notes?: Annotations; lastMove?: LastMove; groups?: boolean };
/** A block of a rules section: a paragraph (`code` between backticks), a list, steps or diagrams. */
export type RulesBlock = string | { list?: string[]; steps?: string[]; figure?: string[]; caption?: string };
export type RulesSection = { id: string; title: string; body: RulesBlock[] };
/** The rules page's text in one language (a `js/rules/*.js` file's `rules`). */
export type RulesText = {
  title: string;
  lead: string;
  tocLabel: string;
  cta: string;
  diagrams: Record<string, string>;
  sections: RulesSection[];
};
/** A `js/rules/*.js` file: the page, and its section on tournaments. */
export type RulesTexts = { rules: RulesText; tournaments: RulesSection };

// ---- pages/game-model.js ---------------------------------------------------------------------

/** An argument of something said: a value, or `{ t: key }`, a key to translate (a colour's name). */
export type SaidArg = string | number | boolean | null | undefined | { t: string } | { percent: number };
/** Something to say: a translation key and its arguments. */
export type Said = { key: string; args?: Record<string, SaidArg> };
/** What a seat asks of the server besides moves. */
export type GameAction = 'undo' | 'acceptUndo' | 'declineUndo' | 'resign' | 'claim' | 'draw' | 'declineDraw' | 'abort';
/** An error of a request, as the game page's model reads it. */
export type RequestError = { code?: string };

/** What the game page tells its model (pages/game-model.js's `update`). */
export type GameMsg =
  | { type: 'loaded'; state: GameState; token?: string | null; at: number }
  | { type: 'failed'; error: unknown }
  | { type: 'server'; msg: GameMessage; at: number }
  | { type: 'refetched'; state: GameState; at: number }
  | { type: 'conn'; status: SocketStatus }
  | { type: 'accuracy'; state: GameState | null }
  | { type: 'deal'; p: number }
  | { type: 'play'; move: BoardMove }
  | { type: 'cancelPremove' }
  | { type: 'typed'; text: string }
  | { type: 'played'; state: GameState; at: number }
  | { type: 'playFailed'; error: RequestError }
  | { type: 'act'; action: GameAction; side?: Side; ok?: string }
  | { type: 'acted'; state: GameState; ok?: string; at: number }
  | { type: 'actFailed'; error: unknown }
  | { type: 'resign' }
  | { type: 'askHint' }
  | { type: 'hinted'; state: GameState; analysis: Analysis; at: number }
  | { type: 'animated'; purpose: 'own' | 'view' | 'live'; count: number; epoch?: number }
  | { type: 'view'; view: number | null }
  | { type: 'step'; by: number }
  | { type: 'end' }
  | { type: 'autoplay' }
  | { type: 'autoplayTick' }
  | { type: 'preview'; move: BoardMove | null }
  | { type: 'groups'; on: boolean }
  | { type: 'hints'; on: boolean }
  | { type: 'flip' }
  | { type: 'clockTick'; at: number }
  | { type: 'autoPass'; on: boolean }
  | { type: 'autoPassDue'; turn: string };

/** What the game page's model asks the page to do. */
export type GameEffect =
  | { type: 'connect' | 'estimateDeal' | 'askHint' | 'refetch' | 'forgetSeat' | 'forgetJoin' | 'focusBoard' | 'clearNotation' }
  | { type: 'send'; move: string; number: number }
  | { type: 'fetchAccuracy'; ms: number }
  | { type: 'animate'; purpose: 'own' | 'view' | 'live'; move: BoardMove; before: string; last: LastMove | null; count: number; epoch?: number }
  | { type: 'request'; action: GameAction; side?: Side; ok?: string }
  | { type: 'confirmResign'; local: boolean; side: Side }
  | ({ type: 'announce'; later?: boolean } & Said)
  | { type: 'sound'; kind: Sound }
  | { type: 'announceLow'; ms: number; days: boolean; sound: boolean }
  | ({ type: 'toast' } & Said)
  | { type: 'toast'; error: unknown; kind: 'error' }
  | { type: 'showEnd'; later: boolean }
  | { type: 'playing'; id: string | null }
  | { type: 'saveGroups' | 'saveAutoPass' | 'ticking' | 'autoplay'; on: boolean }
  | { type: 'autoPassTimer'; turn: string | null; ms?: number };

// ---- pages/lobby-model.js --------------------------------------------------------------------

/** The seek form's values, as pages/lobby.js reads them (`time`: a preset `180+2`, `custom` or `days`). */
export type SeekForm = {
  time: string;
  initial: number;
  increment: number;
  days: number;
  scoring: string;
  rated: string;
  color: string;
  min: string;
  max: string;
  noBots: boolean;
  to: string;
};

/** Something the lobby says: a translation key and its parameters. */
export type LobbySaid = { key: string; args?: Params };

/** What the lobby page tells its model (pages/lobby-model.js's `update`). */
export type LobbyMsg =
  | { type: 'start' | 'turn' | 'game' | 'leave' }
  | { type: 'session'; me: string | null; challenge?: string | null }
  | { type: 'ratings'; ratings: RatingRow[] }
  | { type: 'seeks'; seeks: Seek[] }
  | { type: 'status'; status: SocketStatus }
  | { type: 'tick'; hidden: boolean }
  | { type: 'turnLoaded'; games: GameState[] }
  | { type: 'quickScoring'; scoring: string }
  | { type: 'quick'; preset: [number, number] }
  | { type: 'accept' | 'withdraw'; id: string }
  | { type: 'accepted'; gameId: string }
  | { type: 'acceptFailed'; id: string; error: RequestError }
  | { type: 'submit'; values: SeekForm }
  | { type: 'openFailed'; error: unknown; quiet: boolean }
  | { type: 'opened'; seek: Seek; quiet: boolean }
  | { type: 'decline'; id: string; name: string }
  | { type: 'cancelled'; id: string; said: LobbySaid }
  | { type: 'cancelFailed'; error: unknown };

/** What the lobby's model asks the page to do. */
export type LobbyEffect =
  | { type: 'stopTimer' | 'loadTurn' | 'formSent' }
  | { type: 'every'; ms: number }
  | { type: 'loadRatings' | 'fillChallenge'; name: string }
  | { type: 'accept' | 'goToGame'; id: string }
  | { type: 'open'; body: SeekRequest; quiet: boolean }
  | { type: 'cancel'; id: string; said: LobbySaid }
  | { type: 'formError'; key: string; field?: string }
  | { type: 'formError'; error: unknown }
  | { type: 'savePrefs'; quickScoring: string }
  | ({ type: 'toast' | 'announce' } & LobbySaid)
  | ({ type: 'toast'; kind: 'error' } & LobbySaid)
  | { type: 'toast'; error: unknown; kind: 'error' }
  | { type: 'withdrawStill'; ids: string[] };

// ---- pages/analysis-model.js -----------------------------------------------------------------

/** An evaluation graph of the analysis board: the game's scoring (`main`), or the other. */
export type GraphName = 'main' | 'other';

/** What the analysis board tells its model (pages/analysis-model.js's `update`). */
export type AnalysisMsg =
  | { type: 'loaded'; start: string; moves?: LegalMove[]; scoring: string; flipped?: boolean; record?: string | null; link?: string }
  | { type: 'failed'; error: unknown }
  | { type: 'goTo'; id: number }
  | { type: 'first' | 'prev' | 'next' | 'last'; say?: boolean }
  | { type: 'sibling'; by: number; say?: boolean }
  | { type: 'ply'; index: number }
  | { type: 'play'; move: LegalMove }
  | { type: 'lineMove'; notation: string }
  | { type: 'legal'; id: number; moves: LegalMove[] }
  | { type: 'analysis'; id: number; analysis: Analysis }
  | { type: 'analysisFailed'; id: number; error: unknown }
  | { type: 'flip' }
  | { type: 'other'; on: boolean }
  | { type: 'gamePosition'; which: GraphName; index: number; analysis: Analysis; quick?: boolean }
  | { type: 'gameDone'; which: GraphName; values: number[]; notes: MoveNote[]; counts: GameAnalysis['counts'] }
  | { type: 'gameFailed'; which: GraphName; error: unknown };

/** What the analysis board's model asks the page to do. */
export type AnalysisEffect =
  | { type: 'analyse'; id: null }
  | { type: 'analyse'; id: number; position: string; scoring: string }
  | { type: 'legal'; id: number; position: string }
  | { type: 'analyseGame'; which: GraphName; scoring: string; record: string | null }
  | { type: 'announce'; key: string; args?: Params }
  | { type: 'announceNode'; id: number };

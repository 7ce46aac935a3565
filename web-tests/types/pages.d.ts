// The pages' own shapes, for `tsc --checkJs` (tsconfig.json). They live here rather than in the
// scripts' JSDoc because the browser downloads the scripts as they are (no build step): a type
// written here costs no byte of a page. The scripts name them: `import('pages-types').BoardMove`.

import type { Side } from './api-types';

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

// The rules page's text in this language, loaded by `pages/rules.js` only when the rules are
// shown (the language file that every page loads stays small). `rules` is the page; `tournaments`
// its section on tournaments (`/rules#tournaments`).
export default {
  rules: {
    title: 'How to play Mabula',
    lead: 'Two players, twelve marbles each, one wooden board. You push marbles in from the edge, and you try to end with your marbles joined in one big group.',
    tocLabel: 'Sections',
    cta: 'Play a game now',
    diagrams: {
      setup: 'A starting position: every edge space filled, the field empty.',
      ring: 'f1, g1 and h2 follow each other around the ring, across the corner.',
      pushBefore: 'White pushes b1 three squares, to b4.',
      pushAfter: 'After b1-b4: the black and the white marble were shoved along.',
      limit: 'd1 may stop on d2 or d3; d4 or further would push a marble onto the far edge.',
      blocked: 'Rank 5 is full: neither a5 nor h5 can move. Black is about to push e8 down to e4.',
      unblocked: 'The push emptied e5: a5 and h5 can move again.',
      scoring: 'Final position. Largest group: White wins 7 to 4. Product: Black wins 32 to 28.',
    },
    sections: [
      {
        id: 'board',
        title: 'The board',
        body: [
          'The board has a field of 6 by 6 squares in the middle. Around it run 24 edge spaces, six on each side. The four corners are not used.',
          'Squares are named like on a chess board: files `a` to `h` from left to right, ranks `1` to `8` from bottom to top. The field runs from `b2` to `g7`.',
          { figure: ['setup'] },
        ],
      },
      {
        id: 'setup',
        title: 'Setting up',
        body: [
          'At the start all 24 marbles sit on the edge spaces and the field is empty. The marbles are mixed so that, going round the ring of edge spaces, you never meet three marbles of one colour in a row. The ring goes straight across the corners: `g1` and `h2` count as neighbours.',
          'This site deals a random setup that follows this rule, or starts from a position you paste in. Who moves first is decided before the game.',
          { figure: ['ring'] },
        ],
      },
      {
        id: 'move',
        title: 'Your move',
        body: [
          'On your turn, pick one of your own marbles on an edge space and push it straight into the field, at right angles to its side of the board. A marble on `b1` goes up the b-file; a marble on `h4` goes left along rank 4. That straight path is the marble’s line.',
          'Push it as far as you like, at least one square. Any marbles lying in its way are shoved ahead of it, and a row of touching marbles moves together. Marbles further along move only if the shoved row reaches them.',
          { figure: ['pushBefore', 'pushAfter'] },
          'Only marbles on the edge can be pushed by their owner. Once a marble is in the field it only moves when something pushes it, so every marble enters the field at most once.',
        ],
      },
      {
        id: 'limit',
        title: 'Never off the field',
        body: [
          'No marble may ever be pushed out of the field onto an edge space, including the space at the far end of the line. So if a line already holds some marbles, the pushing marble can travel only as far as leaves room for all of them: with 4 marbles in the line, at most 2 squares.',
          'When a line is completely full, the marble waiting at its end cannot move at all.',
          { figure: ['limit'] },
        ],
      },
      {
        id: 'end',
        title: 'Passing and the end of the game',
        body: [
          'If you have a legal push, you must make one. If you have none, you pass and your opponent moves again.',
          'A blocked marble can get free later: a push along a crossing line can carry a marble out of the full line. Then its owner must play again.',
          { figure: ['blocked', 'unblocked'] },
          'The game ends when neither player can push any more. Usually all 24 marbles are in the field by then, but a few may stay stuck on the edge.',
        ],
      },
      {
        id: 'scoring',
        title: 'Who wins',
        body: [
          'A group is a set of marbles of one colour in the field that touch each other side by side. Diagonal neighbours do not connect. Marbles left on the edge belong to no group.',
          { list: [
            'Largest group (the usual way): your score is the size of your biggest group.',
            'Product (a variant): your score is the sizes of all your groups multiplied together. Groups of one count as 1; with no marble in the field you score 0. The best possible score is 81, four groups of three.',
          ] },
          'The higher score wins; equal scores are a draw. The scoring is chosen before the game starts.',
          { figure: ['scoring'], caption: 'White’s groups are 7, 2, 2 and 1; Black’s are 4, 4, 2, 1 and 1.' },
        ],
      },
      {
        id: 'notation',
        title: 'Writing moves down',
        body: [
          'A move is written as the edge space the marble leaves and the field square where it stops: `b1-b4`, `h5-c5`, `e8-e7`. A pass is written `pass`.',
          'A position can be written as one line of text: the ranks from 8 down to 1 separated by `/`, with `w` for white, `b` for black and a digit for a run of empty squares, then the side to move. You can paste such a line on the start page to begin from any position.',
        ],
      },
      {
        id: 'here',
        title: 'Playing on this site',
        body: [
          { steps: [
            'Click or tap one of your marbles on the edge. Its possible stops light up along its line.',
            'Point at a stop to see where every marble would end up, and the score afterwards. On a touch screen, the first tap shows this and a second tap plays.',
            'Click the stop to play. The marbles roll into place.',
          ] },
          'With the keyboard: Tab to the board, move between squares with the arrow keys, press Enter on a marble and again on a stop; Escape puts the marble back. You can also type a move such as `b1-b4` in the box beside the board.',
          'Click any move in the list to see the position at that moment. Outline groups to see how the scores come about.',
        ],
      },
    ],
  },
  tournaments: {
    id: 'tournaments',
    title: 'Tournaments',
    body: [
      'Tournaments here come in two formats: a Swiss of a fixed number of rounds, and an arena of a fixed time. Either can be played in duplicate matches.',
      'A duplicate match is two games on one deal: both games start from the same setup, and the colours are swapped for the second, so each player has that setup once with White and once with Black. The luck of the deal and of moving first cancels out.',
      'The match goes to the player who won more of its two games. With one win each, or two draws, it goes to the player with the greater total margin: in each game that ended on the board, your score minus your opponent’s, added over both games. A game won on time, by resignation or by agreement counts as won but adds nothing to the margin. With equal margins too, each player gets a half point. A match won is worth 1 point, a drawn match ½.',
      'Swiss: in each round players with equal points meet, the upper half of a score group against the lower half, and nobody meets the same opponent twice. With an odd number of players the lowest-placed one who has not had a bye yet gets one, worth 1 point. A Swiss can also be played in single games, with colours alternating.',
      'Equal points in a Swiss are separated by two tie-breaks:',
      { list: [
        'Buchholz: the sum of your opponents’ points.',
        'Sonneborn-Berger: the sum of the points of the opponents you beat, plus half the points of those you drew.',
        'A bye counts as a win against an opponent with as many points as you.',
      ] },
      'Arena: as soon as your game ends you are paired again, with someone near you in points, not your last opponent if anyone else is free, and with the colours balanced. A win scores 2, a draw 1, a loss 0. After two wins in a row you are on a streak: each further win scores 4 and each draw 2, until a game you do not win. Equal points are separated by performance: the average rating of your opponents, plus 500 for each win and minus 500 for each loss.',
      'A game whose first move does not come within 30 seconds is called off: in a Swiss it counts as lost by whoever missed it; in an arena it counts for nobody and pauses whoever missed it. An arena pairs only the players who are there (the tournament’s page, or one of its games, open) and not paused; you may pause, and come back when you like. After two missed games in a row you are withdrawn: you are not paired again, but your results stay in the standings.',
    ],
  },
};

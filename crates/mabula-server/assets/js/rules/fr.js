// The rules page's text in this language, loaded by `pages/rules.js` only when the rules are
// shown (the language file that every page loads stays small). `rules` is the page; `tournaments`
// its section on tournaments (`/rules#tournaments`).
export default {
  rules: {
    title: 'Comment jouer à Mabula',
    lead: 'Deux joueurs, douze billes chacun, un plateau en bois. On pousse des billes depuis le bord, et l’on cherche à finir avec ses billes réunies en un grand groupe.',
    tocLabel: 'Sections',
    cta: 'Jouer une partie',
    diagrams: {
      setup: 'Une position de départ : toutes les cases du bord occupées, le terrain vide.',
      ring: 'f1, g1 et h2 se suivent sur l’anneau, par-dessus le coin.',
      pushBefore: 'Blanc pousse b1 de trois cases, jusqu’en b4.',
      pushAfter: 'Après b1-b4 : la bille noire et la bille blanche ont été entraînées.',
      limit: 'd1 peut s’arrêter en d2 ou d3 ; d4 ou plus loin pousserait une bille sur le bord opposé.',
      blocked: 'La rangée 5 est pleine : ni a5 ni h5 ne peuvent bouger. Noir va pousser e8 jusqu’en e4.',
      unblocked: 'La poussée a vidé e5 : a5 et h5 peuvent de nouveau bouger.',
      scoring: 'Position finale. Plus grand groupe : Blanc gagne 7 à 4. Produit : Noir gagne 32 à 28.',
    },
    sections: [
      {
        id: 'board',
        title: 'Le plateau',
        body: [
          'Au centre se trouve un terrain de 6 cases sur 6. Tout autour courent 24 cases de bord, six de chaque côté. Les quatre coins ne servent pas.',
          'Les cases se nomment comme aux échecs : colonnes `a` à `h` de gauche à droite, rangées `1` à `8` de bas en haut. Le terrain va de `b2` à `g7`.',
          { figure: ['setup'] },
        ],
      },
      {
        id: 'setup',
        title: 'Mise en place',
        body: [
          'Au départ, les 24 billes occupent les cases du bord et le terrain est vide. Elles sont mélangées de sorte qu’en faisant le tour du bord on ne rencontre jamais trois billes de la même couleur à la suite. Le tour passe directement par-dessus les coins : `g1` et `h2` sont voisines.',
          'Ce site distribue les billes au hasard en respectant cette règle, ou part d’une position que vous collez. Qui commence est décidé avant la partie.',
          { figure: ['ring'] },
        ],
      },
      {
        id: 'move',
        title: 'Votre coup',
        body: [
          'À votre tour, prenez une de vos billes sur une case du bord et poussez-la tout droit dans le terrain, perpendiculairement à son côté du plateau. Une bille en `b1` monte la colonne b ; une bille en `h4` part vers la gauche sur la rangée 4. Ce chemin droit est sa ligne.',
          'Poussez-la aussi loin que vous voulez, d’au moins une case. Les billes sur son chemin sont poussées devant elle, et une file de billes qui se touchent avance d’un bloc. Les billes plus loin ne bougent que si la file poussée les atteint.',
          { figure: ['pushBefore', 'pushAfter'] },
          'Seules les billes du bord peuvent être poussées par leur propriétaire. Une bille entrée dans le terrain ne bouge plus que si on la pousse : chaque bille entre donc au plus une fois.',
        ],
      },
      {
        id: 'limit',
        title: 'Jamais hors du terrain',
        body: [
          'Aucune bille ne doit jamais être poussée hors du terrain sur une case du bord, pas même celle au bout de la ligne. Si la ligne contient déjà des billes, la bille poussée ne peut avancer que tant qu’il reste de la place pour toutes : avec 4 billes dans la ligne, 2 cases au plus.',
          'Quand une ligne est entièrement pleine, la bille qui attend à son bout ne peut pas bouger du tout.',
          { figure: ['limit'] },
        ],
      },
      {
        id: 'end',
        title: 'Passer et fin de partie',
        body: [
          'Si vous avez une poussée permise, vous devez la jouer. Si vous n’en avez aucune, vous passez et votre adversaire rejoue.',
          'Une bille bloquée peut se libérer plus tard : une poussée sur une ligne qui croise la sienne peut faire sortir une bille de la ligne pleine. Son propriétaire doit alors jouer à nouveau.',
          { figure: ['blocked', 'unblocked'] },
          'La partie se termine quand aucun des deux joueurs ne peut plus pousser. En général les 24 billes sont alors dans le terrain, mais quelques-unes peuvent rester coincées au bord.',
        ],
      },
      {
        id: 'scoring',
        title: 'Qui gagne',
        body: [
          'Un groupe est un ensemble de billes d’une même couleur, dans le terrain, qui se touchent par un côté. Les voisines en diagonale ne sont pas reliées. Les billes restées au bord n’appartiennent à aucun groupe.',
          { list: [
            'Plus grand groupe (la règle habituelle) : votre score est la taille de votre plus grand groupe.',
            'Produit (une variante) : votre score est le produit des tailles de tous vos groupes. Une bille isolée compte 1 ; sans bille dans le terrain, vous marquez 0. Le meilleur score possible est 81 : quatre groupes de trois.',
          ] },
          'Le score le plus élevé gagne ; à égalité, la partie est nulle. Le décompte est choisi avant la partie.',
          { figure: ['scoring'], caption: 'Les groupes de Blanc font 7, 2, 2 et 1 ; ceux de Noir 4, 4, 2, 1 et 1.' },
        ],
      },
      {
        id: 'notation',
        title: 'Noter les coups',
        body: [
          'Un coup s’écrit avec la case du bord que la bille quitte et la case du terrain où elle s’arrête : `b1-b4`, `h5-c5`, `e8-e7`. Passer s’écrit `pass`.',
          'Une position tient sur une ligne de texte : les rangées de 8 à 1 séparées par `/`, avec `w` pour blanc, `b` pour noir et un chiffre pour une suite de cases vides, puis le camp au trait. Collez une telle ligne sur la page d’accueil pour partir de n’importe quelle position.',
        ],
      },
      {
        id: 'here',
        title: 'Jouer sur ce site',
        body: [
          { steps: [
            'Cliquez ou touchez une de vos billes au bord. Ses arrêts possibles s’allument le long de sa ligne.',
            'Pointez un arrêt pour voir où finirait chaque bille, et le score qui en résulte. Sur un écran tactile, le premier toucher montre cet aperçu et le second joue.',
            'Cliquez sur l’arrêt pour jouer. Les billes roulent à leur place.',
          ] },
          'Au clavier : Tab pour atteindre le plateau, les flèches pour aller de case en case, Entrée sur une bille puis sur un arrêt ; Échap repose la bille. Vous pouvez aussi taper un coup comme `b1-b4` dans le champ à côté du plateau.',
          'Cliquez sur un coup de la liste pour revoir la position à ce moment-là. Entourez les groupes pour comprendre d’où viennent les scores.',
        ],
      },
    ],
  },
  tournaments: {
    id: 'tournaments',
    title: 'Tournois',
    body: [
      'Les tournois se jouent ici sous deux formes : un suisse en un nombre fixe de rondes, et une arène d’une durée fixe. Les deux peuvent se jouer en matchs dupliqués.',
      'Un match dupliqué, ce sont deux parties sur une même donne : elles partent de la même mise en place, et les couleurs sont inversées pour la seconde, si bien que chaque joueur a cette mise en place une fois avec les Blancs et une fois avec les Noirs. La chance de la donne et du trait s’annule.',
      'Le match revient au joueur qui a gagné le plus de ses deux parties. Avec une victoire chacun, ou deux nulles, il revient à celui dont l’écart total est le plus grand : dans chaque partie terminée sur le plateau, votre score moins celui de votre adversaire, additionné sur les deux parties. Une partie gagnée au temps, par abandon ou d’un commun accord compte comme gagnée, mais n’ajoute rien à l’écart. Si les écarts sont égaux aussi, chacun reçoit un demi-point. Un match gagné vaut 1 point, un match nul ½.',
      'Suisse : à chaque ronde, les joueurs à égalité de points se rencontrent, la moitié haute d’un groupe de points contre la moitié basse, et personne ne rencontre deux fois le même adversaire. Avec un nombre impair de joueurs, le moins bien classé qui n’a pas encore été exempté l’est, ce qui vaut 1 point. Un suisse peut aussi se jouer en parties simples, les couleurs alternant.',
      'Les égalités de points d’un suisse sont départagées par deux critères :',
      { list: [
        'Buchholz : la somme des points de vos adversaires.',
        'Sonneborn-Berger : la somme des points des adversaires que vous avez battus, plus la moitié des points de ceux contre qui vous avez fait nulle.',
        'Une exemption compte comme une victoire contre un adversaire ayant autant de points que vous.',
      ] },
      'Arène : dès que votre partie se termine, vous êtes apparié à nouveau, avec un joueur proche de vous en points, pas votre dernier adversaire si un autre est libre, et avec des couleurs équilibrées. Une victoire rapporte 2, une nulle 1, une défaite 0. Après deux victoires de suite, vous êtes en série : chaque nouvelle victoire rapporte 4 et chaque nulle 2, jusqu’à une partie que vous ne gagnez pas. Les égalités de points sont départagées par la performance : la moyenne des classements de vos adversaires, plus 500 par victoire et moins 500 par défaite.',
      'Une partie dont le premier coup ne vient pas dans les 30 secondes est annulée : dans un suisse, elle compte comme perdue par celui qui l’a manqué ; dans une arène, elle ne compte pour personne et met en pause celui qui l’a manqué. Une arène n’apparie que les joueurs présents (la page du tournoi, ou l’une de ses parties, ouverte) et pas en pause ; vous pouvez faire une pause et revenir quand vous voulez. Après deux parties manquées de suite, vous êtes retiré du tournoi : vous n’êtes plus apparié, mais vos résultats restent au classement.',
    ],
  },
};

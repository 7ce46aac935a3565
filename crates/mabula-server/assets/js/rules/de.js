// The rules page's text in this language, loaded by `pages/rules.js` only when the rules are
// shown (the language file that every page loads stays small). `rules` is the page; `tournaments`
// its section on tournaments (`/rules#tournaments`).
export default {
  rules: {
    title: 'So spielt man Mabula',
    lead: 'Zwei Spielende, je zwölf Murmeln, ein Holzbrett. Ihr schiebt Murmeln vom Rand hinein und versucht, am Ende eure Murmeln zu einer großen Gruppe verbunden zu haben.',
    tocLabel: 'Abschnitte',
    cta: 'Jetzt eine Partie spielen',
    diagrams: {
      setup: 'Eine Anfangsstellung: alle Randfelder besetzt, das Feld leer.',
      ring: 'f1, g1 und h2 folgen auf dem Ring aufeinander, über die Ecke hinweg.',
      pushBefore: 'Weiß schiebt b1 drei Felder weit, nach b4.',
      pushAfter: 'Nach b1-b4: Die schwarze und die weiße Murmel wurden mitgeschoben.',
      limit: 'd1 darf auf d2 oder d3 halten; d4 oder weiter würde eine Murmel auf den gegenüberliegenden Rand drücken.',
      blocked: 'Reihe 5 ist voll: Weder a5 noch h5 können ziehen. Schwarz schiebt gleich e8 hinunter nach e4.',
      unblocked: 'Der Schub hat e5 geleert: a5 und h5 können wieder ziehen.',
      scoring: 'Schlussstellung. Größte Gruppe: Weiß gewinnt 7 zu 4. Produkt: Schwarz gewinnt 32 zu 28.',
    },
    sections: [
      {
        id: 'board',
        title: 'Das Brett',
        body: [
          'In der Mitte liegt ein Feld aus 6 mal 6 Plätzen. Darum herum laufen 24 Randfelder, sechs an jeder Seite. Die vier Ecken werden nicht benutzt.',
          'Die Plätze heißen wie beim Schach: Linien `a` bis `h` von links nach rechts, Reihen `1` bis `8` von unten nach oben. Das Feld reicht von `b2` bis `g7`.',
          { figure: ['setup'] },
        ],
      },
      {
        id: 'setup',
        title: 'Aufbau',
        body: [
          'Zu Beginn liegen alle 24 Murmeln auf den Randfeldern, das Feld ist leer. Sie sind so gemischt, dass man auf dem Weg rund um den Rand nie drei Murmeln derselben Farbe hintereinander trifft. Der Ring führt direkt über die Ecken: `g1` und `h2` gelten als Nachbarn.',
          'Diese Seite verteilt die Murmeln zufällig nach dieser Regel oder beginnt mit einer Stellung, die du einfügst. Wer anfängt, wird vor der Partie festgelegt.',
          { figure: ['ring'] },
        ],
      },
      {
        id: 'move',
        title: 'Dein Zug',
        body: [
          'Wenn du am Zug bist, nimmst du eine deiner Murmeln auf einem Randfeld und schiebst sie geradeaus ins Feld, im rechten Winkel zu ihrer Brettseite. Eine Murmel auf `b1` läuft die b-Linie hinauf, eine auf `h4` nach links durch Reihe 4. Dieser gerade Weg ist ihre Bahn.',
          'Schieb sie so weit du willst, mindestens ein Feld. Murmeln auf dem Weg werden vorausgeschoben, und eine Reihe sich berührender Murmeln bewegt sich gemeinsam. Weiter entfernte Murmeln bewegen sich nur, wenn die geschobene Reihe sie erreicht.',
          { figure: ['pushBefore', 'pushAfter'] },
          'Nur Murmeln am Rand dürfen von ihren Besitzern geschoben werden. Liegt eine Murmel erst im Feld, bewegt sie sich nur noch, wenn sie angeschoben wird. Jede Murmel kommt also höchstens einmal ins Feld.',
        ],
      },
      {
        id: 'limit',
        title: 'Niemals aus dem Feld',
        body: [
          'Keine Murmel darf je aus dem Feld auf ein Randfeld gedrückt werden, auch nicht auf das am anderen Ende der Bahn. Liegen schon Murmeln in der Bahn, kommt die schiebende Murmel nur so weit, dass alle noch Platz haben: bei 4 Murmeln in der Bahn höchstens 2 Felder.',
          'Ist eine Bahn ganz voll, kann die Murmel an ihrem Ende gar nicht ziehen.',
          { figure: ['limit'] },
        ],
      },
      {
        id: 'end',
        title: 'Passen und Ende der Partie',
        body: [
          'Wer einen erlaubten Schub hat, muss ihn machen. Wer keinen hat, passt, und die Gegenseite zieht noch einmal.',
          'Eine blockierte Murmel kann später wieder frei werden: Ein Schub auf einer kreuzenden Bahn kann eine Murmel aus der vollen Bahn herausschieben. Dann muss ihr Besitzer wieder ziehen.',
          { figure: ['blocked', 'unblocked'] },
          'Die Partie endet, wenn niemand mehr schieben kann. Meist liegen dann alle 24 Murmeln im Feld, aber einige können am Rand stecken bleiben.',
        ],
      },
      {
        id: 'scoring',
        title: 'Wer gewinnt',
        body: [
          'Eine Gruppe sind Murmeln einer Farbe im Feld, die sich seitlich berühren. Diagonale Nachbarn zählen nicht als verbunden. Murmeln am Rand gehören zu keiner Gruppe.',
          { list: [
            'Größte Gruppe (die übliche Wertung): Deine Punkte sind die Größe deiner größten Gruppe.',
            'Produkt (eine Variante): Die Größen aller deiner Gruppen werden multipliziert. Einzelne Murmeln zählen 1; ohne Murmel im Feld hast du 0 Punkte. Das Beste ist 81: vier Dreiergruppen.',
          ] },
          'Die höhere Punktzahl gewinnt, bei Gleichstand ist es unentschieden. Die Wertung wird vor der Partie gewählt.',
          { figure: ['scoring'], caption: 'Die Gruppen von Weiß sind 7, 2, 2 und 1; die von Schwarz 4, 4, 2, 1 und 1.' },
        ],
      },
      {
        id: 'notation',
        title: 'Züge aufschreiben',
        body: [
          'Ein Zug wird als das Randfeld geschrieben, das die Murmel verlässt, und das Feld, auf dem sie hält: `b1-b4`, `h5-c5`, `e8-e7`. Passen schreibt man `pass`.',
          'Eine Stellung passt in eine Textzeile: die Reihen von 8 bis 1, getrennt durch `/`, mit `w` für Weiß, `b` für Schwarz und einer Ziffer für leere Plätze, dann die Seite am Zug. So eine Zeile kannst du auf der Startseite einfügen und von jeder Stellung aus beginnen.',
        ],
      },
      {
        id: 'here',
        title: 'Spielen auf dieser Seite',
        body: [
          { steps: [
            'Klick oder tippe auf eine deiner Murmeln am Rand. Ihre möglichen Ziele leuchten entlang der Bahn auf.',
            'Zeig auf ein Ziel: Du siehst, wo jede Murmel landen würde, und den Punktestand danach. Auf einem Touchscreen zeigt das erste Tippen die Vorschau, das zweite zieht.',
            'Klick auf das Ziel, um zu ziehen. Die Murmeln rollen an ihren Platz.',
          ] },
          'Mit der Tastatur: Mit Tab aufs Brett, mit den Pfeiltasten von Platz zu Platz, Enter auf einer Murmel und noch einmal auf einem Ziel; Escape legt die Murmel zurück. Du kannst einen Zug wie `b1-b4` auch in das Feld neben dem Brett tippen.',
          'Klick auf einen Zug in der Liste, um die Stellung von damals zu sehen. Mit umrandeten Gruppen erkennst du, wie die Punkte zustande kommen.',
        ],
      },
    ],
  },
  tournaments: {
    id: 'tournaments',
    title: 'Turniere',
    body: [
      'Turniere gibt es hier in zwei Formen: ein Schweizer System mit fester Rundenzahl und eine Arena mit fester Dauer. Beide können in Duplikat-Matches gespielt werden.',
      'Ein Duplikat-Match sind zwei Partien mit derselben Verteilung: Beide beginnen mit demselben Aufbau, und in der zweiten werden die Farben getauscht, sodass jeder diesen Aufbau einmal mit Weiß und einmal mit Schwarz spielt. Das Glück der Verteilung und des Anzugs hebt sich auf.',
      'Das Match gewinnt, wer mehr seiner beiden Partien gewonnen hat. Bei je einem Sieg oder zwei Remis gewinnt, wer den größeren Gesamtabstand hat: In jeder Partie, die auf dem Brett endete, deine Punkte minus die deines Gegners, über beide Partien addiert. Eine Partie, die durch Zeit, Aufgabe oder Einigung gewonnen wurde, zählt als gewonnen, trägt aber nichts zum Abstand bei. Ist auch der Abstand gleich, bekommt jeder einen halben Punkt. Ein gewonnenes Match bringt 1 Punkt, ein unentschiedenes ½.',
      'Schweizer System: In jeder Runde treffen Spieler mit gleich vielen Punkten aufeinander, die obere Hälfte einer Punktgruppe gegen die untere, und niemand spielt zweimal gegen denselben Gegner. Bei ungerader Spielerzahl bekommt der Tiefstplatzierte, der noch kein Freilos hatte, eines; es zählt 1 Punkt. Ein Schweizer Turnier kann auch in Einzelpartien mit wechselnden Farben gespielt werden.',
      'Gleich viele Punkte im Schweizer System werden durch zwei Feinwertungen getrennt:',
      { list: [
        'Buchholz: die Summe der Punkte deiner Gegner.',
        'Sonneborn-Berger: die Summe der Punkte der Gegner, die du besiegt hast, plus die Hälfte der Punkte derer, gegen die du remis gespielt hast.',
        'Ein Freilos zählt als Sieg gegen einen Gegner mit genauso vielen Punkten wie du.',
      ] },
      'Arena: Sobald deine Partie endet, wirst du neu gepaart, mit jemandem, der dir in den Punkten nahe ist, nicht mit deinem letzten Gegner, wenn jemand anderes frei ist, und mit ausgeglichenen Farben. Ein Sieg bringt 2, ein Remis 1, eine Niederlage 0. Nach zwei Siegen in Folge bist du in einer Serie: Jeder weitere Sieg bringt 4 und jedes Remis 2, bis zu einer Partie, die du nicht gewinnst. Gleich viele Punkte trennt die Leistung: die durchschnittliche Wertung deiner Gegner, plus 500 für jeden Sieg und minus 500 für jede Niederlage.',
      'Eine Partie, deren erster Zug nicht innerhalb von 30 Sekunden kommt, wird abgebrochen: Im Schweizer System zählt sie als verloren für den, der ihn verpasst hat; in einer Arena zählt sie für niemanden und pausiert den, der ihn verpasst hat. Eine Arena paart nur Spieler, die da sind (die Turnierseite oder eine ihrer Partien offen) und nicht pausieren; du kannst pausieren und zurückkommen, wann du willst. Nach zwei verpassten Partien in Folge wirst du abgemeldet: Du wirst nicht mehr gepaart, deine Ergebnisse bleiben aber in der Tabelle.',
    ],
  },
};

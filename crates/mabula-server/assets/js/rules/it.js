// The rules page's text in this language, loaded by `pages/rules.js` only when the rules are
// shown (the language file that every page loads stays small). `rules` is the page; `tournaments`
// its section on tournaments (`/rules#tournaments`).
export default {
  rules: {
    title: 'Come si gioca a Mabula',
    lead: 'Due giocatori, dodici biglie a testa, un tavoliere di legno. Si spingono biglie dal bordo verso l’interno e si cerca di finire con le proprie biglie riunite in un unico grande gruppo.',
    tocLabel: 'Sezioni',
    cta: 'Gioca subito una partita',
    diagrams: {
      setup: 'Una posizione iniziale: tutte le caselle del bordo occupate, il campo vuoto.',
      ring: 'f1, g1 e h2 si susseguono sull’anello, oltre l’angolo.',
      pushBefore: 'Il Bianco spinge b1 di tre case, fino a b4.',
      pushAfter: 'Dopo b1-b4: la biglia nera e quella bianca sono state trascinate avanti.',
      limit: 'd1 può fermarsi in d2 o d3; d4 o oltre spingerebbe una biglia sul bordo opposto.',
      blocked: 'La traversa 5 è piena: né a5 né h5 possono muovere. Il Nero sta per spingere e8 fino a e4.',
      unblocked: 'La spinta ha svuotato e5: a5 e h5 possono di nuovo muovere.',
      scoring: 'Posizione finale. Gruppo più grande: vince il Bianco 7 a 4. Prodotto: vince il Nero 32 a 28.',
    },
    sections: [
      {
        id: 'board',
        title: 'Il tavoliere',
        body: [
          'Al centro c’è un campo di 6 per 6 case. Tutt’intorno corrono 24 caselle di bordo, sei per lato. I quattro angoli non si usano.',
          'Le case si chiamano come negli scacchi: colonne da `a` a `h` da sinistra a destra, traverse da `1` a `8` dal basso in alto. Il campo va da `b2` a `g7`.',
          { figure: ['setup'] },
        ],
      },
      {
        id: 'setup',
        title: 'Preparazione',
        body: [
          'All’inizio tutte le 24 biglie stanno sulle caselle del bordo e il campo è vuoto. Sono mescolate in modo che, girando lungo il bordo, non si trovino mai tre biglie dello stesso colore di fila. L’anello passa direttamente sopra gli angoli: `g1` e `h2` sono vicine.',
          'Questo sito distribuisce le biglie a caso rispettando la regola, oppure parte da una posizione che incolli tu. Chi comincia si decide prima della partita.',
          { figure: ['ring'] },
        ],
      },
      {
        id: 'move',
        title: 'La tua mossa',
        body: [
          'Al tuo turno scegli una delle tue biglie su una casella del bordo e spingila dritta nel campo, ad angolo retto rispetto al suo lato del tavoliere. Una biglia in `b1` sale lungo la colonna b; una in `h4` va a sinistra lungo la traversa 4. Quel percorso rettilineo è la sua linea.',
          'Spingila quanto vuoi, almeno di una casa. Le biglie sul suo cammino vengono spinte davanti a lei, e una fila di biglie a contatto si muove tutta insieme. Le biglie più lontane si muovono solo se la fila spinta le raggiunge.',
          { figure: ['pushBefore', 'pushAfter'] },
          'Solo le biglie sul bordo possono essere spinte da chi le possiede. Una volta nel campo, una biglia si muove solo se qualcosa la spinge: ogni biglia entra quindi al massimo una volta.',
        ],
      },
      {
        id: 'limit',
        title: 'Mai fuori dal campo',
        body: [
          'Nessuna biglia può mai essere spinta fuori dal campo su una casella del bordo, nemmeno su quella in fondo alla linea. Se nella linea ci sono già biglie, quella spinta può avanzare solo finché resta posto per tutte: con 4 biglie nella linea, al massimo 2 case.',
          'Quando una linea è completamente piena, la biglia che aspetta alla sua estremità non può muoversi affatto.',
          { figure: ['limit'] },
        ],
      },
      {
        id: 'end',
        title: 'Passare e fine della partita',
        body: [
          'Se hai una spinta consentita, devi farla. Se non ne hai, passi e l’avversario muove di nuovo.',
          'Una biglia bloccata può liberarsi più tardi: una spinta lungo una linea che incrocia la sua può portare una biglia fuori dalla linea piena. Allora chi la possiede deve muovere di nuovo.',
          { figure: ['blocked', 'unblocked'] },
          'La partita finisce quando nessuno dei due può più spingere. Di solito a quel punto tutte le 24 biglie sono nel campo, ma alcune possono restare bloccate sul bordo.',
        ],
      },
      {
        id: 'scoring',
        title: 'Chi vince',
        body: [
          'Un gruppo è un insieme di biglie dello stesso colore, nel campo, che si toccano lato contro lato. Le vicine in diagonale non sono collegate. Le biglie rimaste sul bordo non appartengono a nessun gruppo.',
          { list: [
            'Gruppo più grande (la regola abituale): il tuo punteggio è la grandezza del tuo gruppo più grande.',
            'Prodotto (una variante): il tuo punteggio è il prodotto delle grandezze di tutti i tuoi gruppi. Una biglia isolata vale 1; senza biglie nel campo fai 0. Il massimo possibile è 81: quattro gruppi da tre.',
          ] },
          'Vince il punteggio più alto; a parità è patta. Il tipo di punteggio si sceglie prima della partita.',
          { figure: ['scoring'], caption: 'I gruppi del Bianco sono 7, 2, 2 e 1; quelli del Nero 4, 4, 2, 1 e 1.' },
        ],
      },
      {
        id: 'notation',
        title: 'Annotare le mosse',
        body: [
          'Una mossa si scrive con la casella del bordo che la biglia lascia e la casa del campo dove si ferma: `b1-b4`, `h5-c5`, `e8-e7`. Passare si scrive `pass`.',
          'Una posizione sta in una riga di testo: le traverse da 8 a 1 separate da `/`, con `w` per il bianco, `b` per il nero e una cifra per una serie di case vuote, poi il colore che muove. Incolla una riga così nella pagina iniziale per partire da qualsiasi posizione.',
        ],
      },
      {
        id: 'here',
        title: 'Giocare su questo sito',
        body: [
          { steps: [
            'Fai clic o tocca una delle tue biglie sul bordo. I suoi possibili arrivi si illuminano lungo la linea.',
            'Punta un arrivo per vedere dove finirebbe ogni biglia, e il punteggio che ne risulta. Su uno schermo tattile il primo tocco mostra l’anteprima e il secondo gioca.',
            'Fai clic sull’arrivo per giocare. Le biglie rotolano al loro posto.',
          ] },
          'Con la tastiera: Tab per raggiungere il tavoliere, le frecce per spostarti fra le case, Invio su una biglia e poi su un arrivo; Esc rimette giù la biglia. Puoi anche scrivere una mossa come `b1-b4` nella casella accanto al tavoliere.',
          'Fai clic su una mossa nell’elenco per vedere la posizione di quel momento. Contorna i gruppi per capire da dove vengono i punteggi.',
        ],
      },
    ],
  },
  tournaments: {
    id: 'tournaments',
    title: 'Tornei',
    body: [
      'Qui i tornei hanno due formule: uno svizzero con un numero fisso di turni e un’arena di durata fissa. Entrambi si possono giocare a incontri duplicati.',
      'Un incontro duplicato sono due partite sulla stessa distribuzione: partono dalla stessa disposizione e nella seconda i colori si scambiano, così ogni giocatore ha quella disposizione una volta con il Bianco e una volta con il Nero. La fortuna della distribuzione e della prima mossa si annulla.',
      'L’incontro va a chi ha vinto più partite delle due. Con una vittoria a testa, o due patte, va a chi ha lo scarto totale maggiore: in ogni partita finita sulla scacchiera, il tuo punteggio meno quello dell’avversario, sommato sulle due partite. Una partita vinta per tempo, per abbandono o di comune accordo conta come vinta, ma non aggiunge nulla allo scarto. Se anche lo scarto è uguale, ciascuno riceve mezzo punto. Un incontro vinto vale 1 punto, uno pari ½.',
      'Svizzero: a ogni turno si affrontano giocatori con gli stessi punti, la metà alta di un gruppo di punteggio contro la metà bassa, e nessuno affronta due volte lo stesso avversario. Con un numero dispari di giocatori, il peggio classificato che non ha ancora riposato riceve un turno di riposo, che vale 1 punto. Uno svizzero si può giocare anche a partite singole, con i colori alternati.',
      'A parità di punti, in uno svizzero decidono due spareggi:',
      { list: [
        'Buchholz: la somma dei punti dei tuoi avversari.',
        'Sonneborn-Berger: la somma dei punti degli avversari che hai battuto, più metà dei punti di quelli con cui hai pattato.',
        'Un turno di riposo conta come una vittoria contro un avversario con tanti punti quanti ne hai tu.',
      ] },
      'Arena: appena la tua partita finisce vieni abbinato di nuovo, con qualcuno vicino a te in punti, non con il tuo ultimo avversario se un altro è libero, e con i colori bilanciati. Una vittoria vale 2, una patta 1, una sconfitta 0. Dopo due vittorie di fila sei in serie: ogni altra vittoria vale 4 e ogni patta 2, fino a una partita che non vinci. A parità di punti decide la prestazione: la media del punteggio Elo dei tuoi avversari, più 500 per ogni vittoria e meno 500 per ogni sconfitta.',
      'Una partita la cui prima mossa non arriva entro 30 secondi viene annullata: in uno svizzero conta come persa da chi l’ha mancata; in un’arena non conta per nessuno e mette in pausa chi l’ha mancata. Un’arena abbina solo i giocatori presenti (con la pagina del torneo, o una delle sue partite, aperta) e non in pausa; puoi metterti in pausa e tornare quando vuoi. Dopo due partite mancate di fila vieni ritirato: non vieni più abbinato, ma i tuoi risultati restano in classifica.',
    ],
  },
};

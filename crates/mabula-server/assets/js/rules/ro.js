// The rules page's text in this language, loaded by `pages/rules.js` only when the rules are
// shown (the language file that every page loads stays small). `rules` is the page; `tournaments`
// its section on tournaments (`/rules#tournaments`).
export default {
  rules: {
    title: 'Cum se joacă Mabula',
    lead: 'Doi jucători, câte douăsprezece bile fiecare, o tablă de lemn. Împingi bile de pe margine spre interior și încerci să închei cu bilele tale unite într-un singur grup mare.',
    tocLabel: 'Secțiuni',
    cta: 'Joacă acum o partidă',
    diagrams: {
      setup: 'O poziție de start: toate spațiile de pe margine ocupate, câmpul gol.',
      ring: 'f1, g1 și h2 vin una după alta pe inel, peste colț.',
      pushBefore: 'Albul împinge b1 trei pătrate, până la b4.',
      pushAfter: 'După b1-b4: bila neagră și cea albă au fost împinse înainte.',
      limit: 'd1 se poate opri pe d2 sau d3; d4 sau mai departe ar împinge o bilă pe marginea opusă.',
      blocked: 'Rândul 5 e plin: nici a5, nici h5 nu se pot mișca. Negrul urmează să împingă e8 până la e4.',
      unblocked: 'Împingerea a eliberat e5: a5 și h5 se pot mișca din nou.',
      scoring: 'Poziția finală. Cel mai mare grup: câștigă Albul cu 7 la 4. Produs: câștigă Negrul cu 32 la 28.',
    },
    sections: [
      {
        id: 'board',
        title: 'Tabla',
        body: [
          'În mijloc se află un câmp de 6 pe 6 pătrate. În jurul lui sunt 24 de spații de margine, câte șase pe fiecare latură. Cele patru colțuri nu se folosesc.',
          'Pătratele se numesc ca la șah: coloanele de la `a` la `h` de la stânga la dreapta, rândurile de la `1` la `8` de jos în sus. Câmpul merge de la `b2` la `g7`.',
          { figure: ['setup'] },
        ],
      },
      {
        id: 'setup',
        title: 'Pregătirea',
        body: [
          'La început toate cele 24 de bile stau pe spațiile de margine, iar câmpul e gol. Sunt amestecate astfel încât, mergând de jur împrejurul marginii, să nu întâlnești niciodată trei bile de aceeași culoare la rând. Inelul trece direct peste colțuri: `g1` și `h2` sunt vecine.',
          'Acest site împarte bilele la întâmplare respectând regula, sau pornește de la o poziție pe care o lipești tu. Cine începe se stabilește înainte de partidă.',
          { figure: ['ring'] },
        ],
      },
      {
        id: 'move',
        title: 'Mutarea ta',
        body: [
          'Când e rândul tău, alegi una dintre bilele tale de pe un spațiu de margine și o împingi drept în câmp, perpendicular pe latura ei de tablă. O bilă de pe `b1` urcă pe coloana b; una de pe `h4` merge spre stânga pe rândul 4. Acest drum drept este linia ei.',
          'O poți împinge cât de departe vrei, cel puțin un pătrat. Bilele din calea ei sunt împinse înaintea ei, iar un șir de bile care se ating se mișcă împreună. Bilele mai îndepărtate se mișcă doar dacă șirul împins ajunge la ele.',
          { figure: ['pushBefore', 'pushAfter'] },
          'Doar bilele de pe margine pot fi împinse de proprietarul lor. Odată ajunsă în câmp, o bilă se mișcă doar când e împinsă, așa că fiecare bilă intră în câmp cel mult o dată.',
        ],
      },
      {
        id: 'limit',
        title: 'Niciodată în afara câmpului',
        body: [
          'Nicio bilă nu poate fi împinsă vreodată din câmp pe un spațiu de margine, nici măcar pe cel de la capătul liniei. Dacă linia are deja bile, bila împinsă poate înainta doar cât să rămână loc pentru toate: cu 4 bile pe linie, cel mult 2 pătrate.',
          'Când o linie e complet plină, bila care așteaptă la capătul ei nu se poate mișca deloc.',
          { figure: ['limit'] },
        ],
      },
      {
        id: 'end',
        title: 'Pasul și sfârșitul partidei',
        body: [
          'Dacă ai o împingere permisă, trebuie s-o faci. Dacă nu ai niciuna, pasezi, iar adversarul mută din nou.',
          'O bilă blocată se poate elibera mai târziu: o împingere pe o linie care o intersectează pe a ei poate scoate o bilă din linia plină. Atunci proprietarul ei trebuie să mute din nou.',
          { figure: ['blocked', 'unblocked'] },
          'Partida se încheie când niciunul dintre jucători nu mai poate împinge. De obicei toate cele 24 de bile sunt atunci în câmp, dar câteva pot rămâne blocate pe margine.',
        ],
      },
      {
        id: 'scoring',
        title: 'Cine câștigă',
        body: [
          'Un grup este un set de bile de aceeași culoare, aflate în câmp, care se ating pe laturi. Vecinele pe diagonală nu sunt legate. Bilele rămase pe margine nu aparțin niciunui grup.',
          { list: [
            'Cel mai mare grup (regula obișnuită): scorul tău este mărimea celui mai mare grup al tău.',
            'Produs (o variantă): scorul tău este produsul mărimilor tuturor grupurilor tale. O bilă singură contează 1; fără nicio bilă în câmp ai 0. Cel mai bun scor posibil este 81: patru grupuri de câte trei.',
          ] },
          'Câștigă scorul mai mare; la egalitate e remiză. Felul punctajului se alege înainte de partidă.',
          { figure: ['scoring'], caption: 'Grupurile Albului sunt 7, 2, 2 și 1; ale Negrului, 4, 4, 2, 1 și 1.' },
        ],
      },
      {
        id: 'notation',
        title: 'Notarea mutărilor',
        body: [
          'O mutare se scrie cu spațiul de margine pe care bila îl părăsește și pătratul din câmp unde se oprește: `b1-b4`, `h5-c5`, `e8-e7`. Pasul se scrie `pass`.',
          'O poziție încape pe un rând de text: rândurile de la 8 la 1 despărțite prin `/`, cu `w` pentru alb, `b` pentru negru și o cifră pentru un șir de pătrate goale, apoi partea care mută. Lipește un asemenea rând pe pagina de start ca să pornești din orice poziție.',
        ],
      },
      {
        id: 'here',
        title: 'Jocul pe acest site',
        body: [
          { steps: [
            'Fă clic sau atinge una dintre bilele tale de pe margine. Opririle posibile se luminează de-a lungul liniei ei.',
            'Arată spre o oprire ca să vezi unde ar ajunge fiecare bilă și ce scor ar rezulta. Pe un ecran tactil, prima atingere arată previzualizarea, iar a doua mută.',
            'Fă clic pe oprire ca să muți. Bilele se rostogolesc la locul lor.',
          ] },
          'Cu tastatura: Tab până la tablă, săgețile ca să treci de la un pătrat la altul, Enter pe o bilă și încă o dată pe o oprire; Escape pune bila la loc. Poți și să scrii o mutare precum `b1-b4` în caseta de lângă tablă.',
          'Fă clic pe o mutare din listă ca să vezi poziția din acel moment. Conturează grupurile ca să înțelegi de unde vin scorurile.',
        ],
      },
    ],
  },
  tournaments: {
    id: 'tournaments',
    title: 'Turnee',
    body: [
      'Turneele de aici au două forme: un turneu elvețian cu un număr fix de runde și o arenă cu durată fixă. Amândouă se pot juca în meciuri duplicat.',
      'Un meci duplicat înseamnă două partide pe aceeași împărțire: pornesc din aceeași așezare, iar în a doua culorile se inversează, așa că fiecare jucător are așezarea aceea o dată cu Albul și o dată cu Negrul. Norocul împărțirii și al primei mutări se anulează.',
      'Meciul îl câștigă cel care a câștigat mai multe dintre cele două partide. La câte o victorie fiecare, sau două remize, îl câștigă cel cu diferența totală mai mare: în fiecare partidă încheiată pe tablă, scorul tău minus scorul adversarului, adunat pe ambele partide. O partidă câștigată la timp, prin abandon sau prin înțelegere contează ca victorie, dar nu adaugă nimic la diferență. Dacă și diferențele sunt egale, fiecare primește o jumătate de punct. Un meci câștigat valorează 1 punct, unul egal ½.',
      'Elvețian: în fiecare rundă se întâlnesc jucători cu același număr de puncte, jumătatea de sus a unui grup de punctaj cu jumătatea de jos, și nimeni nu joacă de două ori cu același adversar. La un număr impar de jucători, cel mai slab clasat care nu a stat încă o rundă stă acum, iar asta valorează 1 punct. Un turneu elvețian se poate juca și în partide simple, cu culorile alternând.',
      'La egalitate de puncte într-un turneu elvețian decid două departajări:',
      { list: [
        'Buchholz: suma punctelor adversarilor tăi.',
        'Sonneborn-Berger: suma punctelor adversarilor pe care i-ai învins, plus jumătate din punctele celor cu care ai făcut remiză.',
        'O rundă de pauză contează ca o victorie împotriva unui adversar cu tot atâtea puncte cât ai tu.',
      ] },
      'Arenă: de îndată ce partida ta se termină, ești împerecheat din nou, cu cineva apropiat de tine la puncte, nu cu ultimul tău adversar dacă altcineva e liber, și cu culorile echilibrate. O victorie aduce 2, o remiză 1, o înfrângere 0. După două victorii la rând ești într-o serie: fiecare nouă victorie aduce 4 și fiecare remiză 2, până la o partidă pe care nu o câștigi. La egalitate de puncte decide performanța: media ratingului adversarilor tăi, plus 500 pentru fiecare victorie și minus 500 pentru fiecare înfrângere.',
      'O partidă a cărei primă mutare nu vine în 30 de secunde este anulată: într-un turneu elvețian contează ca pierdută de cel care a ratat-o; într-o arenă nu contează pentru nimeni și îl pune în pauză pe cel care a ratat-o. O arenă împerechează doar jucătorii prezenți (cu pagina turneului, sau una dintre partidele lui, deschisă) și care nu sunt în pauză; poți lua o pauză și reveni când vrei. După două partide ratate la rând ești retras: nu mai ești împerecheat, dar rezultatele tale rămân în clasament.',
    ],
  },
};

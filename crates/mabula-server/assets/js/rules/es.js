// The rules page's text in this language, loaded by `pages/rules.js` only when the rules are
// shown (the language file that every page loads stays small). `rules` is the page; `tournaments`
// its section on tournaments (`/rules#tournaments`).
export default {
  rules: {
    title: 'Cómo se juega a Mabula',
    lead: 'Dos jugadores, doce canicas cada uno, un tablero de madera. Se empujan canicas desde el borde hacia dentro y se intenta acabar con las propias canicas unidas en un gran grupo.',
    tocLabel: 'Apartados',
    cta: 'Jugar una partida ahora',
    diagrams: {
      setup: 'Una posición inicial: todas las casillas del borde ocupadas, el campo vacío.',
      ring: 'f1, g1 y h2 van seguidas en el anillo, por encima de la esquina.',
      pushBefore: 'Las blancas empujan b1 tres casillas, hasta b4.',
      pushAfter: 'Tras b1-b4: la canica negra y la blanca fueron arrastradas.',
      limit: 'd1 puede detenerse en d2 o d3; d4 o más allá empujaría una canica al borde opuesto.',
      blocked: 'La fila 5 está llena: ni a5 ni h5 pueden moverse. Las negras van a empujar e8 hasta e4.',
      unblocked: 'El empujón vació e5: a5 y h5 vuelven a poder moverse.',
      scoring: 'Posición final. Grupo mayor: ganan las blancas 7 a 4. Producto: ganan las negras 32 a 28.',
    },
    sections: [
      {
        id: 'board',
        title: 'El tablero',
        body: [
          'En el centro hay un campo de 6 por 6 casillas. A su alrededor corren 24 casillas de borde, seis por lado. Las cuatro esquinas no se usan.',
          'Las casillas se nombran como en el ajedrez: columnas de la `a` a la `h` de izquierda a derecha, filas del `1` al `8` de abajo arriba. El campo va de `b2` a `g7`.',
          { figure: ['setup'] },
        ],
      },
      {
        id: 'setup',
        title: 'Preparación',
        body: [
          'Al principio las 24 canicas están en las casillas del borde y el campo está vacío. Se mezclan de modo que, recorriendo el borde, nunca aparezcan tres canicas del mismo color seguidas. El recorrido pasa directamente por encima de las esquinas: `g1` y `h2` son vecinas.',
          'Este sitio reparte las canicas al azar respetando esa regla, o empieza desde una posición que pegues. Quién empieza se decide antes de la partida.',
          { figure: ['ring'] },
        ],
      },
      {
        id: 'move',
        title: 'Tu jugada',
        body: [
          'En tu turno, elige una de tus canicas en una casilla del borde y empújala en línea recta hacia el campo, en ángulo recto con su lado del tablero. Una canica en `b1` sube por la columna b; una en `h4` va hacia la izquierda por la fila 4. Ese camino recto es su línea.',
          'Empújala tan lejos como quieras, al menos una casilla. Las canicas que encuentre se empujan delante de ella, y una hilera de canicas que se tocan avanza en bloque. Las canicas más alejadas solo se mueven si la hilera empujada llega hasta ellas.',
          { figure: ['pushBefore', 'pushAfter'] },
          'Solo las canicas del borde pueden ser empujadas por su dueño. Una vez en el campo, una canica solo se mueve si algo la empuja, así que cada canica entra como mucho una vez.',
        ],
      },
      {
        id: 'limit',
        title: 'Nunca fuera del campo',
        body: [
          'Ninguna canica puede ser empujada fuera del campo a una casilla del borde, tampoco a la del otro extremo de la línea. Si la línea ya tiene canicas, la que empuja solo avanza mientras quede sitio para todas: con 4 canicas en la línea, como mucho 2 casillas.',
          'Cuando una línea está completamente llena, la canica que espera en su extremo no puede moverse.',
          { figure: ['limit'] },
        ],
      },
      {
        id: 'end',
        title: 'Pasar y final de la partida',
        body: [
          'Si tienes un empujón permitido, debes hacerlo. Si no tienes ninguno, pasas y tu rival vuelve a jugar.',
          'Una canica bloqueada puede liberarse más tarde: un empujón por una línea que cruza la suya puede sacar una canica de la línea llena. Entonces su dueño debe volver a jugar.',
          { figure: ['blocked', 'unblocked'] },
          'La partida termina cuando ninguno de los dos puede empujar. Normalmente las 24 canicas están entonces en el campo, pero algunas pueden quedarse atascadas en el borde.',
        ],
      },
      {
        id: 'scoring',
        title: 'Quién gana',
        body: [
          'Un grupo es un conjunto de canicas de un mismo color, en el campo, que se tocan por un lado. Las vecinas en diagonal no se conectan. Las canicas que quedan en el borde no pertenecen a ningún grupo.',
          { list: [
            'Grupo mayor (la forma habitual): tu puntuación es el tamaño de tu grupo más grande.',
            'Producto (una variante): tu puntuación es el producto de los tamaños de todos tus grupos. Una canica suelta cuenta 1; sin canicas en el campo sumas 0. Lo máximo posible es 81: cuatro grupos de tres.',
          ] },
          'Gana la puntuación más alta; con puntuaciones iguales hay empate. El tipo de puntuación se elige antes de empezar.',
          { figure: ['scoring'], caption: 'Los grupos de las blancas son 7, 2, 2 y 1; los de las negras, 4, 4, 2, 1 y 1.' },
        ],
      },
      {
        id: 'notation',
        title: 'Anotar las jugadas',
        body: [
          'Una jugada se escribe con la casilla del borde que deja la canica y la casilla del campo donde se detiene: `b1-b4`, `h5-c5`, `e8-e7`. Pasar se escribe `pass`.',
          'Una posición cabe en una línea de texto: las filas del 8 al 1 separadas por `/`, con `w` para blancas, `b` para negras y una cifra para una serie de casillas vacías, y después el bando que juega. Pega una línea así en la página de inicio para empezar desde cualquier posición.',
        ],
      },
      {
        id: 'here',
        title: 'Jugar en este sitio',
        body: [
          { steps: [
            'Haz clic o toca una de tus canicas del borde. Sus paradas posibles se iluminan a lo largo de su línea.',
            'Señala una parada para ver dónde acabaría cada canica y cómo quedaría la puntuación. En una pantalla táctil, el primer toque lo muestra y el segundo juega.',
            'Haz clic en la parada para jugar. Las canicas ruedan hasta su sitio.',
          ] },
          'Con el teclado: Tab para llegar al tablero, las flechas para ir de casilla en casilla, Intro sobre una canica y otra vez sobre una parada; Escape la devuelve. También puedes escribir una jugada como `b1-b4` en el cuadro junto al tablero.',
          'Haz clic en cualquier jugada de la lista para ver la posición de ese momento. Marca los grupos para entender de dónde salen las puntuaciones.',
        ],
      },
    ],
  },
  tournaments: {
    id: 'tournaments',
    title: 'Torneos',
    body: [
      'Aquí los torneos tienen dos formatos: un suizo con un número fijo de rondas y una arena de duración fija. Ambos pueden jugarse en encuentros dobles.',
      'Un encuentro doble son dos partidas con el mismo reparto: las dos empiezan desde la misma disposición y en la segunda se cambian los colores, así que cada jugador juega esa disposición una vez con blancas y otra con negras. La suerte del reparto y de mover primero se compensa.',
      'Gana el encuentro quien haya ganado más de sus dos partidas. Con una victoria cada uno, o dos tablas, lo gana quien tenga mayor diferencia total: en cada partida que terminó en el tablero, tu puntuación menos la de tu rival, sumada en las dos partidas. Una partida ganada por tiempo, por abandono o por acuerdo cuenta como ganada, pero no suma nada a la diferencia. Si la diferencia también es igual, cada jugador recibe medio punto. Un encuentro ganado vale 1 punto; uno empatado, ½.',
      'Suizo: en cada ronda se enfrentan jugadores con los mismos puntos, la mitad superior de un grupo de puntuación contra la mitad inferior, y nadie se enfrenta dos veces al mismo rival. Con un número impar de jugadores, el peor clasificado que aún no haya descansado recibe un descanso, que vale 1 punto. Un suizo también puede jugarse a partidas sueltas, alternando los colores.',
      'Los empates a puntos en un suizo se deshacen con dos desempates:',
      { list: [
        'Buchholz: la suma de los puntos de tus rivales.',
        'Sonneborn-Berger: la suma de los puntos de los rivales a los que ganaste, más la mitad de los puntos de aquellos con los que hiciste tablas.',
        'Un descanso cuenta como una victoria contra un rival con tantos puntos como tú.',
      ] },
      'Arena: en cuanto termina tu partida se te empareja de nuevo, con alguien cercano a ti en puntos, no con tu último rival si hay otro libre, y con los colores equilibrados. Una victoria suma 2, unas tablas 1 y una derrota 0. Tras dos victorias seguidas estás en racha: cada nueva victoria suma 4 y cada tablas 2, hasta una partida que no ganes. Los empates a puntos se deshacen por la actuación: la media del rating de tus rivales, más 500 por cada victoria y menos 500 por cada derrota.',
      'Una partida cuyo primer movimiento no llega en 30 segundos se anula: en un suizo cuenta como perdida para quien lo perdió; en una arena no cuenta para nadie y pone en pausa a quien lo perdió. Una arena solo empareja a quienes están presentes (con la página del torneo, o una de sus partidas, abierta) y no en pausa; puedes ponerte en pausa y volver cuando quieras. Tras dos partidas perdidas así seguidas quedas retirado: ya no se te empareja, pero tus resultados siguen en la clasificación.',
    ],
  },
};

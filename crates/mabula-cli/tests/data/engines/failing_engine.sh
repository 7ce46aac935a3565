#!/bin/sh
# An engine that fails in one way, for the tests of `mabula match`
# (crates/mabula-cli/tests/match_failures.rs). It answers every command well except:
#   exit      -> genmove: exits with status 3 without answering
#   exit-play -> play: answers, then exits with status 4 (the next command meets a closed pipe)
#   pass      -> genmove: "= pass" (a move, but illegal while a push is possible)
#   garbage   -> genmove: "= banana" (not a move)
mode="$1"
while IFS= read -r line; do
  cmd="${line%% *}"
  case "$cmd" in
    quit) printf '=\n\n'; exit 0 ;;
    protocol_version) printf '= 2\n\n' ;;
    genmove)
      case "$mode" in
        exit) exit 3 ;;
        pass) printf '= pass\n\n' ;;
        garbage) printf '= banana\n\n' ;;
        *) printf '? cannot play\n\n' ;;
      esac ;;
    play)
      printf '=\n\n'
      if [ "$mode" = exit-play ]; then exit 4; fi ;;
    *) printf '=\n\n' ;;
  esac
done

#!/bin/sh
# A broken engine for the bridge's tests (crates/mabula-cli/tests/bot_bridge.rs): it answers
# every command but genmove well; genmove is answered as $1 says:
#   refuse  -> "? cannot play"
#   illegal -> a move that is never legal
#   hang    -> nothing, ever
mode="$1"
while IFS= read -r line; do
  cmd="${line%% *}"
  case "$cmd" in
    quit) printf '=\n\n'; exit 0 ;;
    protocol_version) printf '= 2\n\n' ;;
    known_command) printf '= false\n\n' ;;
    genmove)
      case "$mode" in
        refuse) printf '? cannot play\n\n' ;;
        illegal) printf '= a1-a1\n\n' ;;
        hang) sleep 100000 ;;
      esac ;;
    *) printf '=\n\n' ;;
  esac
done

#!/bin/sh
# What each key kind of the frontier's store costs LevelDB in the crawl of
# bench/endless.sh (doc/frontier.md, "What each key kind costs"): the
# normal tern with bench/kindsplit.c preloaded, which puts each kind in a
# LevelDB of its own (split) or keeps the one store and counts (count).
#
#   bench/kinds.sh OUTDIR MODE PAGES...   (split, splitwb, useg, count, drop, plain)
#
# Per point bench/endless.sh appends its row to OUTDIR/kinds-MODE-runs.tsv
# and the library one row per kind to OUTDIR/kinds-MODE-kinds.tsv
# (columns in bench/kindsplit.c, label MODE-PAGES), the stores' stats
# text to OUTDIR/kinds-MODE-stats.txt. useg is split with the URI keys
# of each time segment apart (KINDSPLIT_USEG=1); splitwb is split with
# each kind's memtable its share of one store's (KINDSPLIT_WB, by default
# the shares of bench/endless.sh's 10M-URI point: u 64 %, s 24 %, q 11 %,
# the rest 1 % of 16 MiB, by bytes written plus 20 a entry); plain runs
# tern without the library; drop keeps the one store but leaves the
# puts of the kinds in KINDSPLIT_DROP (default s, the seen keys) out of it:
# the ceiling of what a seen set outside LevelDB could save. The checkpoint at shutdown is off in every mode: the split
# stores are not a store a checkpoint can freeze.
# TERN as bench/endless.sh's; the library is built next to it.
cd "$(dirname "$0")/.." || exit 1
top=$(pwd)
[ $# -ge 3 ] || { echo "usage: bench/kinds.sh OUTDIR split|count|plain PAGES..." >&2; exit 2; }
outdir=$1 mode=$2
shift 2
case $outdir in /*) ;; *) outdir=$top/$outdir ;; esac
useg=0 kmode=$mode
case $mode in
split | count | plain) ;;
drop)
	KINDSPLIT_DROP=${KINDSPLIT_DROP:-s}
	export KINDSPLIT_DROP
	;;
useg) useg=1 kmode="split" ;;
splitwb)
	kmode="split"
	KINDSPLIT_WB=${KINDSPLIT_WB:-u=10240,s=3840,q=1792,*=256}
	export KINDSPLIT_WB
	;;
*) echo "bench/kinds.sh: MODE is split, splitwb, useg, count, drop or plain" >&2; exit 2 ;;
esac
TERN=${TERN:-$top/build/bench/src/tern}
export TERN
lib=$(dirname "$TERN")/kindsplit.so
${CC:-cc} -O2 -shared -fPIC -Wall -Wextra -Werror -o "$lib" bench/kindsplit.c -ldl -lleveldb || exit 1
mkdir -p "$outdir"
for pages in "$@"; do
	if [ "$mode" = plain ]; then
		ENDLESS_SET="--set checkpoint.on-shutdown=false ${ENDLESS_SET:-}" \
			bench/endless.sh "$outdir/kinds-$mode-runs.tsv" "$pages" || exit 1
	else
		KINDSPLIT_MODE=$kmode KINDSPLIT_USEG=$useg KINDSPLIT_LABEL=$mode-$pages \
			KINDSPLIT_OUT=$outdir/kinds-$mode-kinds.tsv KINDSPLIT_STATS=$outdir/kinds-$mode-stats.txt \
			ENDLESS_PRELOAD=$lib ENDLESS_SET="--set checkpoint.on-shutdown=false ${ENDLESS_SET:-}" \
			bench/endless.sh "$outdir/kinds-$mode-runs.tsv" "$pages" || exit 1
	fi
done

#!/bin/sh
# Resuming from a checkpoint, judged from the test web's request log:
#   - a crawl is stopped, checkpointed (tests/crawl/checkpoint_driver until the
#     crawl loop takes its own), then continued past the checkpoint and
#     killed, so the live state is ahead of the checkpoint;
#   - the job directory is copied twice. Copy A is restored, crawled a little,
#     killed, restored from the same checkpoint again and crawled to the end;
#     copy B is restored by name with an edited tern.conf and crawled to the
#     end. Each must fetch every page the checkpoint had not: the manifest is
#     covered by the requests before the checkpoint plus those of its final
#     run alone, and that run repeats none of the checkpoint's done pages;
#   - the checkpoint's files are byte-identical before and after all that
#     (restoring never writes into a checkpoint);
#   - copy B runs with the edited configuration (wiring comes from
#     tern.conf, never from the checkpoint): at most 2 requests at once at
#     the server, as the edit says, where the original ran 4.
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq

DRIVER=$top_builddir/tests/crawl/checkpoint_driver
[ -x "$DRIVER" ] || fail "no $DRIVER (make check builds it)"
CONNS=4
tw_start --hosts 6 --pages 40 --links 6 --kb 2 --latency-ms 10-30
dns_start
cd "$TW_DIR" || fail "no work directory"
job=$TW_DIR/job
log=$TW_DIR/requests.tsv
man=$TW_DIR/manifest.tsv

now_ms() {
	date +%s%3N
}

"$TERN" crawl -j "$job" -s "$TW_DIR/seeds.txt" \
	--set dns.servers="$DNS_SERVER" \
	--set fetch.allow-private-addresses=true \
	--set politeness.min-delay-ms=100 \
	--set politeness.delay-factor=0 \
	--set politeness.respect-crawl-delay-up-to-seconds=0 \
	--set crawl.max-hops=500 \
	--set crawl.max-connections=$CONNS >tern.out 2>&1 &
pid=$!
_i=0
while [ ! -s "$log" ] && [ $_i -lt 300 ]; do
	sleep 0.05
	_i=$((_i + 1))
done
sleep 1.5
kill -TERM $pid
wait $pid || fail "tern did not stop cleanly on SIGTERM: $(tail -5 tern.out)"
cp_ms=$(now_ms)
"$DRIVER" create "$job" >cp.out 2>&1 || fail "checkpoint: $(cat cp.out)"
name=$(cut -d' ' -f1 cp.out)
case $name in
cp[0-9][0-9][0-9][0-9][0-9]-*) ;;
*) fail "unexpected checkpoint name: $(cat cp.out)" ;;
esac
[ -f "$job/checkpoints/$name/valid" ] || fail "checkpoint without its valid marker"
sleep 0.05

# The live state moves on past the checkpoint, then dies.
"$TERN" resume "$job" >>tern.out 2>&1 &
pid=$!
sleep 1
kill -KILL $pid
wait $pid

cp -a "$job" "$TW_DIR/jobA"
cp -a "$job" "$TW_DIR/jobB"
sums() {
	(cd "$1/checkpoints/$name" && find . -type f | sort | xargs md5sum)
}
sums "$TW_DIR/jobA" >sumA.before

# Copy A: restore, run, die, restore the same checkpoint again, finish.
"$DRIVER" restore "$TW_DIR/jobA" latest >rA1.out 2>&1 || fail "restore A: $(cat rA1.out)"
"$TERN" resume "$TW_DIR/jobA" >>tern.out 2>&1 &
pid=$!
sleep 1
kill -KILL $pid
wait $pid
"$DRIVER" restore "$TW_DIR/jobA" "$name" >rA2.out 2>&1 || fail "restore A again: $(cat rA2.out)"
a_start=$(now_ms)
"$TERN" resume "$TW_DIR/jobA" >>tern.out 2>&1 || fail "resume A failed: $(tail -5 tern.out)"
a_end=$(now_ms)
sums "$TW_DIR/jobA" >sumA.after
cmp -s sumA.before sumA.after || fail "the checkpoint changed while being resumed from: $(diff sumA.before sumA.after | head -5)"
"$DRIVER" list "$TW_DIR/jobA" | grep -qx "$name" || fail "checkpoint no longer listed after use"

# Copy B: an edited configuration, restored by name.
"$DRIVER" restore "$TW_DIR/jobB" "$name" >rB.out 2>&1 || fail "restore B: $(cat rB.out)"
sed -i 's/^max-connections = .*/max-connections = 2/' "$TW_DIR/jobB/tern.conf"
grep -q '^max-connections = 2$' "$TW_DIR/jobB/tern.conf" || fail "tern.conf edit did not apply"
b_start=$(now_ms)
"$TERN" resume "$TW_DIR/jobB" >>tern.out 2>&1 || fail "resume B failed: $(tail -5 tern.out)"
b_end=$(now_ms)
grep -q "Sanitizer" tern.out && fail "sanitizer report: $(grep -A20 Sanitizer tern.out | head -40)"
tw_stop

awk -F'\t' '$2 == "allowed" { print $1 }' "$man" | sort >allowed.txt
[ -s allowed.txt ] || fail "empty manifest"
pages() {
	awk -F'\t' -v p="$TW_PORT" -v a="$1" -v b="$2" \
		'$4 != "/robots.txt" && $1 >= a && $1 <= b { print "http://" $3 ":" p $4 }' "$log" | sort
}
pages 0 "$cp_ms" | sort -u >pre.txt
[ -s pre.txt ] || fail "nothing was fetched before the checkpoint"
comm -23 allowed.txt pre.txt >todo.txt
[ -s todo.txt ] || fail "the crawl had finished before the checkpoint: nothing left to test"
for x in A B; do
	if [ $x = A ]; then s=$a_start e=$a_end; else s=$b_start e=$b_end; fi
	pages "$s" "$e" >run$x.txt
	missing=$(sort -u run$x.txt | comm -23 todo.txt - | wc -l)
	[ "$missing" -eq 0 ] || fail "copy $x: $missing pages the checkpoint still had to fetch were not: $(sort -u run$x.txt | comm -23 todo.txt - | head -5)"
	again=$(sort -u run$x.txt | comm -12 pre.txt - | wc -l)
	[ "$again" -le $CONNS ] || fail "copy $x fetched $again pages again that were done at the checkpoint"
	[ "$(uniq -d run$x.txt | wc -l)" -eq 0 ] || fail "copy $x fetched pages twice: $(uniq -d run$x.txt | head -3)"
done

# Copy B's concurrency at the server: never more than the edited 2.
awk -F'\t' -v a="$b_start" -v b="$b_end" '$1 >= a && $1 <= b { s[n] = $1; e[n] = $2; n++ }
	END {
		max = 0
		for (i = 0; i < n; i++) {
			c = 0
			for (j = 0; j < n; j++)
				if (s[j] <= s[i] && s[i] < e[j]) c++
			if (c > max) max = c
		}
		print max
		exit max > 2
	}' "$log" >concB.txt || fail "copy B had $(cat concB.txt) requests in flight at once with max-connections = 2"
grep -q "with 2 connections" "$TW_DIR/jobB/logs/tern.log" || fail "copy B did not run with the edited tern.conf: $(tail -3 "$TW_DIR/jobB/logs/tern.log")"

# WARC files of each copy keep distinct serials (a resume continues them).
for j in job jobA jobB; do
	ls "$TW_DIR/$j/warcs" | sed -n 's/^[^-]*-[0-9]\{17\}-\([0-9]*\)-.*/\1/p' | sort | uniq -d >dupserial.txt
	[ -s dupserial.txt ] && fail "$j: WARC serial used twice: $(cat dupserial.txt)"
done
pass "$(wc -l <todo.txt) pages left at $name fetched by each of two copies; checkpoint unchanged after two restores"

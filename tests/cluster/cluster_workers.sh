#!/bin/sh
# tern crawl --workers N (doc/cluster.md): two local processes share one
# crawl over a nats-server that tern starts itself. ctl and report act
# through worker 0; a SIGTERM stops both workers and the server; tern
# resume JOBDIR starts them again and the crawl ends with every reachable
# page requested (those in flight at the stop, and no more, twice).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cluster/cluster_lib.sh"
need_cmd dnsmasq nats-server

tw_start --hosts 100 --pages 20 --links 5 --kb 2 --latency-ms 0-10
dns_start
cd "$TW_DIR" || fail "no work directory"
cluster_start_workers
"$TERN" ctl w status >status.json || fail "ctl through worker 0: $(cat status.json)"
grep -q RUNNING status.json || fail "ctl status: $(cat status.json)"
i=0
until "$TERN" report w cluster >report.txt 2>&1 && grep -q ', 2 nodes;' report.txt; do
	[ $i -lt 100 ] || fail "report cluster: $(cat report.txt)"
	sleep 0.1
	i=$((i + 1))
done
pass "ctl and report act through worker 0 ($(grep -c 'RUNNING' report.txt) running)"

kill -TERM $WPID
i=0
while kill -0 $WPID 2>/dev/null; do
	[ $i -lt 300 ] || fail "tern --workers still running 30 s after SIGTERM"
	sleep 0.1
	i=$((i + 1))
done
wait $WPID
rc=$?
[ $rc -eq 0 ] || fail "tern --workers exited $rc after SIGTERM: $(cat w.out)"
grep -q "worker 0 exited 0" w.out && grep -q "worker 1 exited 0" w.out || fail "workers: $(cat w.out)"
ls w/nats/*.ports >/dev/null 2>&1 && pgrep -f "nats-server.*$TW_DIR/w/nats" >/dev/null &&
	fail "the workers' nats-server outlived them"
stopped=$(wc -l <requests.tsv)
pass "SIGTERM stopped both workers and the server after $stopped requests"

cluster_resume_workers w
tw_stop
cluster_requested
dups=$(uniq -d requested.txt | wc -l)
[ "$dups" -le 32 ] || fail "$dups pages requested twice after the stop and resume (32 connections)"
pass "resumed to the end: every reachable page requested, $dups twice"

# Resumed again once it has ended: nothing more, said as such, not as a
# crawl of the job's pages in a fraction of a second.
cp resume.out resume1.out
cluster_resume_workers w
grep -q "workers: nothing more to crawl; the job has [0-9]* pages" resume.out ||
	fail "a finished --workers job resumed: $(cat resume.out)"
grep -q "by the job, every run" resume1.out || fail "a resume's summary is not the job's: $(cat resume1.out)"
pass "a finished --workers job resumes to nothing, and says so"

#!/bin/sh
# Crawls the WordPress site built by bench/cms/setup.sh with tern and with
# wget2, compares what each fetched, packages tern's crawl as a WACZ and
# replays a post from it in ReplayWeb.page (bench/cms/README.md).
#   bench/cms/run.sh [TERN] [--set KEY=VALUE | -c FILE]...
# TERN: the tern binary (default build/bench/src/tern); every --set and -c
# is given to each tern crawl after the run's own settings, so a rule set
# or another build's setting can be tried without editing this script.
# Environment: CMS_DIR (the site, default /tmp/tern-cms), CMS_OUT (the
# results, default CMS_DIR/out, emptied first), CMS_RUNS (which crawls,
# default "tern-local tern-private tern-domain wget2"), CMS_TIMEOUT
# (seconds a crawl may take, default 3600), CMS_REPLAY=0 to skip the
# ReplayWeb.page check. CMS_RUNS may also name wget2-rules: wget2 with
# bench/cms/reject.txt's rules as its --reject-regex, to set beside a tern
# crawl given the same rules.
#
# The crawls, one after the other, all from http://blog.test:PORT/ (which
# answers 301 to http://www.blog.test:PORT/):
#   tern-local    tern crawl --local SEED             (what a new user types)
#   tern-private  the same with fetch.allow-private-addresses=true
#   tern-domain   the same with crawl.scope=domain as well (the whole site)
#   wget2         wget2 --recursive --level=inf --span-hosts
#                 --domains=blog.test (the same scope), robots obeyed, files
#                 saved
# Names resolve through one hosts file (CMS_OUT/hosts): tern reads it as
# CARES_HOSTS; wget2 uses the system resolver, so it runs in a private
# mount namespace (unshare -m) where that file is bind-mounted over
# /etc/hosts. Needs root for that. What each fetched is taken from nginx's
# access log (the server's view, the same for both), cut per crawl.
# Results: CMS_OUT/summary.md (bench/cms/compare.sh), the crawls' job
# directories and logs, tern-domain.wacz, shots/*.png.
set -eu
. "$(dirname "$0")/env.sh"

TERN=$CMS_TOP/build/bench/src/tern
case ${1:-} in
"" | --set | -c) ;;
*) TERN=$1; shift ;;
esac
# The rest of the arguments are --set and -c pairs, given as they are to
# tern (a configuration file's path made absolute: tern runs elsewhere).
n=$#
while [ $n -gt 0 ]; do
	case $1 in
	--set) [ $n -ge 2 ] || cms_die "usage: run.sh [TERN] [--set KEY=VALUE | -c FILE]..." ;;
	-c)
		[ $n -ge 2 ] && [ -f "$2" ] || cms_die "-c: no file ${2:-}"
		_f=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
		shift 2
		set -- -c "$_f" "$@"
		;;
	*) cms_die "usage: run.sh [TERN] [--set KEY=VALUE | -c FILE]..." ;;
	esac
	set -- "$@" "$1" "$2"
	shift 2
	n=$((n - 2))
done
[ -x "$TERN" ] || cms_die "no tern at $TERN (make -C build/bench src/tern, or give its path)"
TERN=$(cd "$(dirname "$TERN")" && pwd)/$(basename "$TERN")
[ -f "$CMS_DIR/built" ] || cms_die "no site in $CMS_DIR: run bench/cms/setup.sh"
[ "$(id -u)" -eq 0 ] || cms_die "needs root (unshare -m for wget2's resolver)"
for c in nginx php wget2 unshare curl node timeout ss; do
	command -v $c >/dev/null 2>&1 || cms_die "$c missing: run bench/cms/setup.sh"
done
RUNS=${CMS_RUNS:-tern-local tern-private tern-domain wget2}
TIMEOUT=${CMS_TIMEOUT:-3600}
OUT=${CMS_OUT:-$CMS_DIR/out}
rm -rf "$OUT"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
chmod 755 "$OUT"

"$CMS_HERE/teardown.sh"
trap cms_stop_all EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
cms_db_start
cms_fpm_start
cms_nginx_start
cms_php move "$CMS_ORIGIN"
SEED=http://blog.test:$CMS_PORT/
printf '127.0.0.1 localhost\n::1 localhost\n127.0.0.1 blog.test www.blog.test\n' >"$OUT/hosts"
chmod 644 "$OUT/hosts"
{
	echo "site: $(cms_php stats)"
	echo "wordpress: $(dpkg-query -W -f='${Version}' wordpress), nginx $(dpkg-query -W -f='${Version}' nginx), php-fpm $(dpkg-query -W -f='${Version}' php-fpm), mariadb $(dpkg-query -W -f='${Version}' mariadb-server)"
	echo "tern: $TERN ($("$TERN" --version 2>&1 | head -1); $(git -C "$CMS_TOP" describe --always --dirty 2>/dev/null || echo ?))"
	echo "wget2: $(wget2 --version 2>/dev/null | head -1)"
	echo "seed: $SEED"
	echo "extra settings: ${*:-none}"
} >"$OUT/info.txt"
cat "$OUT/info.txt"

# The page bench/cms/replay.mjs opens: a post with images and comments.
cms_php sample "$CMS_ORIGIN" >"$OUT/sample.json"

# crawl NAME CMD...: runs CMD (time-boxed, timed), keeps its part of the
# access log as NAME.access.tsv and "NAME wall cpu rss rc" in times.txt.
crawl() {
	_name=$1
	shift
	_from=$(($(wc -l <"$CMS_RUN/access.tsv") + 1))
	cms_log "crawl $_name: $*"
	_rc=0
	/usr/bin/time -f '%e %U %S %M' -o "$OUT/$_name.time" timeout "$TIMEOUT" "$@" \
		>"$OUT/$_name.out" 2>&1 || _rc=$?
	sleep 0.5
	tail -n +"$_from" "$CMS_RUN/access.tsv" >"$OUT/$_name.access.tsv"
	awk -v n="$_name" -v rc=$_rc 'END { printf "%s %s %.2f %d %d\n", n, $1, $2 + $3, $4, rc }' \
		"$OUT/$_name.time" >>"$OUT/times.txt"
	cms_log "crawl $_name: exit $_rc, $(wc -l <"$OUT/$_name.access.tsv") requests, $(tail -1 "$OUT/times.txt")"
}

for r in $RUNS; do
	case $r in
	tern-local)
		crawl "$r" env CARES_HOSTS="$OUT/hosts" "$TERN" crawl --local -j "$OUT/$r" "$@" "$SEED"
		;;
	tern-private)
		crawl "$r" env CARES_HOSTS="$OUT/hosts" "$TERN" crawl --local -j "$OUT/$r" \
			--set fetch.allow-private-addresses=true "$@" "$SEED"
		;;
	tern-domain)
		crawl "$r" env CARES_HOSTS="$OUT/hosts" "$TERN" crawl --local -j "$OUT/$r" \
			--set fetch.allow-private-addresses=true --set crawl.scope=domain "$@" "$SEED"
		;;
	wget2)
		crawl "$r" unshare -m sh -c 'mount --bind "$1" /etc/hosts && shift && exec "$@"' sh "$OUT/hosts" \
			wget2 --recursive --level=inf --span-hosts --domains=blog.test --robots=on \
			--directory-prefix="$OUT/wget2" --no-verbose --output-file="$OUT/wget2.log" "$SEED"
		;;
	wget2-rules)
		# wget2 with reject.txt's rules as one --reject-regex (POSIX).
		re=$(grep -v -e '^#' -e '^$' "$CMS_HERE/reject.txt" | sed 's/.*/(&)/' | paste -sd'|')
		crawl "$r" unshare -m sh -c 'mount --bind "$1" /etc/hosts && shift && exec "$@"' sh "$OUT/hosts" \
			wget2 --recursive --level=inf --span-hosts --domains=blog.test --robots=on \
			--reject-regex="$re" --directory-prefix="$OUT/$r" --no-verbose --output-file="$OUT/$r.log" "$SEED"
		;;
	*) cms_die "unknown run $r (CMS_RUNS: tern-local tern-private tern-domain wget2 wget2-rules)" ;;
	esac
done

# The crawls are over: nothing that follows talks to the site.
cms_stop_all
trap - EXIT

if [ -d "$OUT/tern-domain" ]; then
	cms_log "tern wacz tern-domain"
	"$TERN" wacz "$OUT/tern-domain" -o "$OUT/tern-domain.wacz" >"$OUT/wacz.out" 2>&1 ||
		cms_die "tern wacz failed: $(cat "$OUT/wacz.out")"
fi

"$CMS_HERE/compare.sh" "$OUT" "$CMS_PORT" >"$OUT/summary.md"
cat "$OUT/summary.md"

if [ "${CMS_REPLAY:-1}" != 0 ] && [ -f "$OUT/tern-domain.wacz" ]; then
	cms_log "ReplayWeb.page: $(cat "$OUT/sample.json")"
	node "$CMS_HERE/replay.mjs" "$OUT/tern-domain.wacz" "$OUT/sample.json" "$OUT/shots" ||
		cms_die "the post did not replay with its images (screenshots in $OUT/shots)"
fi
cms_log "results in $OUT"

#!/bin/sh
# bench/cms/compare.sh OUT PORT: the Markdown summary of bench/cms/run.sh's
# crawls from their parts of nginx's access log (OUT/NAME.access.tsv:
# time, host, request URI, status, bytes, user agent, method) and
# OUT/times.txt:
# per crawl the requests, unique URLs, statuses and cost; per kind of URL
# (bench/cms/classify.awk) what tern-domain and wget2 each fetched, what
# only one did (with examples); the share of CMS machinery; and what the
# rules of bench/cms/reject.txt would have kept out of tern-domain's crawl.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$1
port=$2
cd "$out"
runs=""
for r in tern-local tern-private tern-domain wget2 wget2-rules; do
	[ -f "$r.access.tsv" ] && runs="$runs $r"
done

# Programs that use classify.awk's functions (several -f: mawk has no -e).
cat >urls.awk <<'EOA'
{ u = "http://" $2 ":" port $3; st[u] = $4; k[u] = cls($2, $3); b[u] += $5 }
END { for (u in k) printf "%s\t%s\t%s\t%d\n", k[u], u, st[u], b[u] }
EOA
# NAME.urls: "kind<TAB>URL<TAB>status<TAB>bytes" once per unique URL (its
# last status, the bytes of all its requests).
for r in $runs; do
	awk -F'\t' -v port="$port" -f "$here/classify.awk" -f urls.awk "$r.access.tsv" | sort >"$r.urls"
done
rm -f urls.awk

echo "# bench/cms: tern and wget2 on a WordPress site"
echo
sed 's/^/    /' info.txt
echo
echo "## Crawls"
echo
echo "| crawl | exit | requests | HEAD | unique URLs | 2xx | 3xx | 4xx | 5xx | MB sent | wall s | CPU s | peak RSS MB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for r in $runs; do
	t=$(grep "^$r " times.txt | tail -1)
	awk -F'\t' -v r="$r" -v t="$t" '
		{ n++; b += $5; s = substr($4, 1, 1); c[s]++ ; u[$2 " " $3] = 1; if ($7 == "HEAD") h++ }
		END { split(t, f, " "); for (x in u) nu++
			printf "| %s | %s | %d | %d | %d | %d | %d | %d | %d | %.1f | %s | %s | %.0f |\n", r, f[5], n, h, nu,
				c[2], c[3], c[4], c[5], b / 1e6, f[2], f[3], f[4] / 1024 }' "$r.access.tsv"
done
echo
echo "Requests and bytes are nginx's (bytes are bodies as sent, compressed where"
echo "nginx compressed them); wall, CPU (user + system) and peak RSS are the"
echo "crawler's own (\`/usr/bin/time\`)."

# The other crawls against tern-domain (tern-local should match it once a
# seed's redirect target becomes a seed).
if [ -f tern-domain.urls ]; then
	echo
	echo "## Each crawl against tern-domain"
	echo
	echo "| crawl | unique URLs | also in tern-domain | only in it | only in tern-domain |"
	echo "|---|---:|---:|---:|---:|"
	for r in $runs; do
		[ "$r" = tern-domain ] && continue
		awk -F'\t' -v r="$r" 'FNR == 1 { f++ } f == 1 { d[$2] = 1; nd++; next }
			{ n++; if ($2 in d) both++ } END { printf "| %s | %d | %d | %d | %d |\n", r, n, both, n - both, nd - both }' \
			tern-domain.urls "$r.urls"
	done
fi

[ -f tern-domain.urls ] && [ -f wget2.urls ] || exit 0
echo
echo "## What tern-domain and wget2 fetched, by kind of URL"
echo
echo "Unique URLs requested (any status). Machinery is marked *. MB: the bodies"
echo "nginx sent tern for them (compressed where it compressed them)."
echo
cat >kinds.awk <<'EOA'
	FNR == 1 { f++ }
	f == 1 { t[$1]++; tk[$2] = $1; kinds[$1] = 1; tb[$1] += $4; TB += $4 }
	f == 2 { w[$1]++; wk[$2] = $1; kinds[$1] = 1 }
	END {
		for (u in tk) if (u in wk) both[tk[u]]++; else ot[tk[u]]++
		for (u in wk) if (!(u in tk)) ow[wk[u]]++
		print "| kind | tern-domain | wget2 | both | only tern | only wget2 | tern-domain MB |"
		print "|---|---:|---:|---:|---:|---:|---:|"
		n = 0
		for (k in kinds) names[++n] = k
		for (i = 2; i <= n; i++) { x = names[i]; for (j = i - 1; j >= 1 && t[names[j]] + w[names[j]] < t[x] + w[x]; j--) names[j + 1] = names[j]; names[j + 1] = x }
		for (i = 1; i <= n; i++) {
			k = names[i]
			printf "| %s%s | %d | %d | %d | %d | %d | %.2f |\n", k, machinery(k) ? " *" : "", t[k], w[k], both[k], ot[k], ow[k], tb[k] / 1e6
			T += t[k]; W += w[k]; B += both[k]; OT += ot[k]; OW += ow[k]
			if (machinery(k)) { MT += t[k]; MW += w[k]; MB += tb[k] }
		}
		printf "| **all** | **%d** | **%d** | **%d** | **%d** | **%d** | **%.2f** |\n", T, W, B, OT, OW, TB / 1e6
		printf "| machinery * | %d (%.0f %%) | %d (%.0f %%) | | | | %.2f (%.0f %%) |\n", MT, T ? 100 * MT / T : 0, MW, W ? 100 * MW / W : 0, MB / 1e6, TB ? 100 * MB / TB : 0
	}
EOA
awk -F'\t' -f "$here/classify.awk" -f kinds.awk tern-domain.urls wget2.urls
rm -f kinds.awk

# ex FILE_A FILE_B: up to 3 URLs per kind in A and not in B.
ex() {
	awk -F'\t' 'FNR == 1 { f++ } f == 1 { b[$2] = 1; next } !($2 in b) && c[$1]++ < 3 { printf "- %s: `%s` (%s)\n", $1, $2, $3 }' "$2" "$1"
}
echo
echo "### Only tern-domain (examples, status in parentheses)"
echo
ex tern-domain.urls wget2.urls
echo
echo "### Only wget2 (examples, status in parentheses)"
echo
ex wget2.urls tern-domain.urls

echo
echo "## Requests per URL"
echo
for r in $runs; do
	awk -F'\t' -v r="$r" '{ n[$2 " " $3]++ } END { for (u in n) { if (n[u] > 1) { d++; x += n[u] - 1 } }
		printf "- %s: %d URLs requested more than once (%d extra requests)\n", r, d, x }' "$r.access.tsv"
done

echo
echo "## bench/cms/reject.txt applied to tern-domain's URLs"
echo
echo "Each rule's count is the URLs it would have rejected first (in file order)."
echo "Pages reached only through rejected URLs would also have gone unfetched, so"
echo "the figure left is an upper bound."
echo
echo "| rule (ERE) | URLs rejected |"
echo "|---|---:|"
cut -f2 tern-domain.urls >left.tmp
total=$(wc -l <left.tmp)
grep -v '^#' "$here/reject.txt" | grep -v '^$' | while IFS= read -r re; do
	printf '| `%s` | %d |\n' "$re" "$(grep -cE -e "$re" left.tmp || true)"
	grep -vE -e "$re" left.tmp >left.next || true
	mv left.next left.tmp
done
printf '| **left of %d** | **%d** |\n' "$total" "$(wc -l <left.tmp)"
rm -f left.tmp

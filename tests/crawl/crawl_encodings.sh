#!/bin/sh
# Content codings in a crawl (doc/formats.md, "crawl.log"): pages sent as
# br, as zstd and as "gzip, br" whatever the request asked (as some servers
# do) have their links extracted and followed, and are archived as sent
# (the WARC payload digest is that of the bytes on the wire); a br bomb is
# decodeTrunc and a broken br stream decodeError, and neither stops the
# crawl.
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq curl openssl base32

tw_start --hosts 1 --pages 30 --links 2 --kb 1 --cross 0
dns_start
cd "$TW_DIR" || fail "no work directory"

# outlinks URL: the outlinks of URL's metadata record.
outlinks() {
	for _w in job/warcs/*.warc.gz; do
		gzip -dc "$_w"
	done | tr -d '\r' | awk -v u="$1" '
		/^WARC\/1\.[01]$/ { inhead = 1; type = ""; target = ""; next }
		inhead && /^WARC-Type:/ { type = $2 }
		inhead && /^WARC-Target-URI:/ { target = $2 }
		inhead && /^$/ { inhead = 0; take = type == "metadata" && target == u; next }
		take && /^outlink: / { print $2 }'
}
# payload URL: the WARC-Payload-Digest of URL's response record.
payload() {
	for _w in job/warcs/*.warc.gz; do
		gzip -dc "$_w"
	done | tr -d '\r' | awk -v u="$1" '
		/^WARC\/1\.[01]$/ { inhead = 1; type = ""; target = ""; digest = ""; next }
		inhead && /^WARC-Type:/ { type = $2 }
		inhead && /^WARC-Target-URI:/ { target = $2 }
		inhead && /^WARC-Payload-Digest:/ { digest = $2 }
		inhead && /^$/ { inhead = 0; if (type == "response" && target == u) print digest }'
}
br=$(tw_url 0 /_mis/br)
zstd=$(tw_url 0 /_mis/zstd)
stack=$(tw_url 0 /_mis/gzip-br)
bomb=$(tw_url 0 '/_mis/br-bomb?mb=64')
corrupt=$(tw_url 0 /_mis/br-corrupt)
"$TERN" crawl -j job --set dns.servers="$DNS_SERVER" --set fetch.allow-private-addresses=true \
	--set politeness.min-delay-ms=0 --set politeness.delay-factor=0 --set politeness.respect-crawl-delay-up-to-seconds=0 \
	--set crawl.max-hops=1 \
	--set fetch.accept-encoding=br \
	"$br" "$zstd" "$stack" "$bomb" "$corrupt" >tern.out 2>&1 ||
	fail "tern crawl exited $?: $(tail -5 tern.out)"
cl=job/logs/crawl.log

for u in "$br" "$zstd" "$stack"; do
	line=$(awk -v u="$u" '$4 == u' "$cl")
	[ -n "$line" ] || fail "$u not in crawl.log"
	case $line in *decode*) fail "$u: $line" ;; esac
	outlinks "$u" >links.txt
	grep -qx "$(tw_url 0 /p/1.html)" links.txt && grep -qx "$(tw_url 0 /_mis/chunked)" links.txt ||
		fail "$u: its links were not extracted: $(cat links.txt)"
	# Archived as sent: the digest of the encoded bytes.
	want=sha1:$(curl -s --resolve "h0.web.test:$TW_PORT:127.0.0.1" -H "Accept-Encoding: identity" "$u" | openssl dgst -sha1 -binary | base32)
	got=$(payload "$u")
	[ "$got" = "$want" ] || fail "$u: payload digest $got, the bytes sent are $want"
done
# The links were followed: the pages they name in scope (under /_mis/,
# the seeds' prefix) were fetched.
for p in /_mis/chunked /_mis/gzip; do
	awk -v u="$(tw_url 0 "$p")" '$4 == u && $2 == 200 { f = 1 } END { exit !f }' "$cl" ||
		fail "$p, linked from the encoded pages, was not fetched"
done
awk -v u="$bomb" '$4 == u && $2 == 200 && $12 ~ /decodeTrunc/ { f = 1 } END { exit !f }' "$cl" ||
	fail "the br bomb is not decodeTrunc: $(grep br-bomb "$cl")"
awk -v u="$corrupt" '$4 == u && $2 == 200 && $12 ~ /decodeError/ { f = 1 } END { exit !f }' "$cl" ||
	fail "the broken br page is not decodeError: $(grep br-corrupt "$cl")"
pass "br, zstd and gzip, br pages: links followed, archived as sent; br bomb decodeTrunc, broken br decodeError"

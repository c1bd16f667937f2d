#!/bin/sh
# HTTP logins from fetch.credentials-file (tern(1), LOGINS) against servers
# nobody here wrote: Debian's nginx with auth_basic (an htpasswd file made
# with openssl passwd) and Apache's mod_auth_digest (Digest, MD5, qop=auth).
#   - a 401 with a matching credential is archived and the page asked again
#     at once with it; the crawl.log line is the page's final answer;
#   - Basic credentials accepted by a server are sent ahead to its other
#     URIs under the credential's prefix (no 401 first);
#   - no credential, or a wrong password: the 401 is final;
#   - the Authorization headers are in the WARC request records, the
#     password in no other file of the job.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/bench/nginx.sh"
. "$top_srcdir/tests/crawl/access_lib.sh"
need_cmd nginx curl node openssl apache2
tw_dir
acc_site "$TW_DIR"
printf 'alice:%s\n' "$(openssl passwd -apr1 's3cret pw')" >"$TW_DIR/htpasswd"
acc_nginx "$TW_DIR" "location /private/ { auth_basic \"Members only\"; auth_basic_user_file $TW_DIR/htpasswd; }"
H=http://127.0.0.1:$ACC_PORT
tab=$(printf '\t')

# crawl NAME CREDENTIALS-LINE SEED: a --local crawl into job NAME with a
# credentials file of that one line (none if empty).
crawl() {
	_j=$1
	(umask 077 && printf '%s\n' "$2" >"$TW_DIR/$_j.creds")
	"$TERN" crawl --local -j "$TW_DIR/$_j" --set "fetch.credentials-file=$TW_DIR/$_j.creds" "$3" \
		>"$TW_DIR/$_j.out" 2>&1 || fail "tern crawl $_j exited $?: $(cat "$TW_DIR/$_j.out")"
	grep -q Sanitizer "$TW_DIR/$_j.out" && fail "sanitizer report: $(cat "$TW_DIR/$_j.out")"
	LOG=$TW_DIR/$_j/logs/crawl.log
}
# status URL: its status in crawl.log.
status() {
	awk -v u="$1" '$4 == u { print $2 }' "$LOG"
}

: >"$ACC_LOG"
crawl basic "http 127.0.0.1:$ACC_PORT)/private/ \"Members only\" alice \"s3cret pw\"" "$H/"
[ "$(status "$H/private/p.html")" = 200 ] || fail "basic: p.html: $(cat "$LOG")"
[ "$(status "$H/private/q.html")" = 200 ] || fail "basic: q.html: $(cat "$LOG")"
grep -c . "$LOG" | grep -qx 5 || fail "basic: a 401 has a crawl.log line: $(cat "$LOG")"
auth="Basic $(printf 'alice:s3cret pw' | base64)"
# p.html: challenged, then answered; q.html: credentials sent ahead.
[ "$(awk -F'\t' '$1 == "/private/p.html" { printf "%s|%s;", $2, $7 }' "$ACC_LOG")" = "401|-;200|$auth;" ] ||
	fail "basic: p.html requests: $(cat "$ACC_LOG")"
[ "$(awk -F'\t' '$1 == "/private/q.html" { printf "%s|%s;", $2, $7 }' "$ACC_LOG")" = "200|$auth;" ] ||
	fail "basic: q.html not sent ahead: $(cat "$ACC_LOG")"
awk -F'\t' '$1 !~ /^\/private\// && $7 != "-"' "$ACC_LOG" | grep -q . &&
	fail "basic: credentials sent outside their prefix: $(cat "$ACC_LOG")"
acc_requests "$TW_DIR/basic" >"$TW_DIR/basic.jsonl"
node -e '
const recs = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
const p = recs.filter((r) => r.uri.endsWith("/private/p.html"));
if (p.length !== 4) { console.error("p.html records: " + p.length); process.exit(1); }
const req = p.filter((r) => r.type === "request").map((r) => /\r\nAuthorization: /.test(r.head));
if (req.join() !== "false,true") { console.error("p.html requests with Authorization: " + req); process.exit(1); }
' "$TW_DIR/basic.jsonl" || fail "basic: WARC records"
grep -rqa "s3cret" "$TW_DIR/basic/tern.conf" "$TW_DIR/basic/logs" "$TW_DIR/basic/reports" "$TW_DIR/basic.out" &&
	fail "basic: the password was written to the job"
pass "nginx auth_basic: 401 archived, retried with Basic, sent ahead under the prefix"

: >"$ACC_LOG"
crawl none "" "$H/"
[ "$(status "$H/private/p.html")" = 401 ] || fail "none: $(cat "$LOG")"
crawl wrong "http 127.0.0.1:$ACC_PORT)/private/ * alice nope" "$H/"
[ "$(status "$H/private/p.html")" = 401 ] || fail "wrong: $(cat "$LOG")"
[ "$(awk -F'\t' '$1 == "/private/p.html"' "$ACC_LOG" | wc -l)" -eq 3 ] ||
	fail "wrong: p.html asked other than once without and once with: $(cat "$ACC_LOG")"
crawl realm "http 127.0.0.1:$ACC_PORT)/private/ \"Other realm\" alice \"s3cret pw\"" "$H/"
[ "$(status "$H/private/p.html")" = 401 ] || fail "another realm's credential was sent: $(cat "$LOG")"
"$TERN" crawl --local -j "$TW_DIR/seed401" "$H/private/p.html" >"$TW_DIR/seed401.out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "a seed answered 401: exit $rc: $(cat "$TW_DIR/seed401.out")"
grep -q "HTTP error status 401 (seed $H/private/p.html); see fetch.credentials-file" "$TW_DIR/seed401.out" ||
	fail "a seed's 401 does not name the setting: $(cat "$TW_DIR/seed401.out")"
pass "no credential, a wrong password, another realm: the 401 is final; a seed's names fetch.credentials-file"

# Apache's mod_auth_digest.
ngx_ports 1
AP=$NGX_BASE
M=/usr/lib/apache2/modules
printf 'alice:Members:%s\n' "$(printf 'alice:Members:s3cret pw' | openssl md5 -r | cut -d' ' -f1)" >"$TW_DIR/htdigest"
cat >"$TW_DIR/apache.conf" <<CONF
ServerRoot $TW_DIR
ServerName 127.0.0.1
Listen 127.0.0.1:$AP
PidFile $TW_DIR/apache.pid
ErrorLog $TW_DIR/apache-error.log
LoadModule mpm_event_module $M/mod_mpm_event.so
LoadModule authn_core_module $M/mod_authn_core.so
LoadModule authn_file_module $M/mod_authn_file.so
LoadModule authz_core_module $M/mod_authz_core.so
LoadModule authz_user_module $M/mod_authz_user.so
LoadModule auth_digest_module $M/mod_auth_digest.so
LoadModule dir_module $M/mod_dir.so
LoadModule mime_module $M/mod_mime.so
User nobody
Group nogroup
TypesConfig /dev/null
AddType text/html .html
AddType text/plain .txt
LogFormat "%U\t%>s\t%{Authorization}i" acc
CustomLog $TW_DIR/apache-access.tsv acc
DocumentRoot $TW_DIR/web
<Directory $TW_DIR/web>
  Require all granted
</Directory>
<Location /private/>
  AuthType Digest
  AuthName "Members"
  AuthDigestProvider file
  AuthUserFile $TW_DIR/htdigest
  Require valid-user
</Location>
CONF
apache2 -X -f "$TW_DIR/apache.conf" >"$TW_DIR/apache.out" 2>&1 &
track_pid $!
i=0
while ! curl -s -o /dev/null "http://127.0.0.1:$AP/robots.txt"; do
	[ $i -lt 100 ] || fail "apache did not start: $(cat "$TW_DIR/apache.out" "$TW_DIR/apache-error.log")"
	sleep 0.1
	i=$((i + 1))
done
A=http://127.0.0.1:$AP
crawl digest "http 127.0.0.1:$AP)/private/ Members alice \"s3cret pw\"" "$A/"
[ "$(status "$A/private/p.html")" = 200 ] || fail "digest: p.html: $(cat "$LOG") $(cat "$TW_DIR/apache-error.log")"
[ "$(status "$A/private/q.html")" = 200 ] || fail "digest: q.html: $(cat "$LOG")"
# Apache writes the header's quotes escaped (\").
grep -q "^/private/p.html${tab}200${tab}Digest username=.*alice.*realm=.*Members.*uri=.*/private/p.html.*algorithm=MD5.*qop=auth" \
	"$TW_DIR/apache-access.tsv" || fail "digest: no answered request: $(cat "$TW_DIR/apache-access.tsv")"
[ "$(grep -c "^/private/q.html${tab}401" "$TW_DIR/apache-access.tsv")" -eq 1 ] ||
	fail "digest: q.html was not challenged once (Digest is never sent ahead): $(cat "$TW_DIR/apache-access.tsv")"
pass "Apache mod_auth_digest: Digest MD5, qop=auth, each URI answered after its own challenge"

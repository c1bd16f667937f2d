#!/bin/sh
# The floors of src/ (doc/architecture.md) hold:
#   1. a file includes headers of its own floor and of lower floors only,
#      never of a higher floor nor of a sibling (another floor of the same
#      rank); FLOOR/private.h only from FLOOR itself, and FLOOR/NAMEprivate.h
#      (the struct NAME.c shares with the rooms behind it) only from the
#      files of FLOOR whose names begin with NAME;
#   2. pure files do no I/O: no I/O header, no call that opens, reads or
#      writes a file or a socket (stderr aside). Every file of src/lib is
#      pure; so is each file of a higher floor listed in PURE below (a pure
#      file lives with the floor it serves; src/lib keeps what two or more
#      floors share);
#   3. no source files call each other, two directly or more around a cycle
#      (from the symbols the built objects define and use).
# The commands at the top (src/*.c) may include any floor.
set -u
: "${top_srcdir:?}"
top_builddir=${top_builddir:-$top_srcdir}
src=$top_srcdir/src
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# One line per floor: its directory under src/ and its rank. A floor may
# include floors of a lower rank; floors of one rank are siblings.
FLOORS='
lib 0
net 1
frontier 1
archive 1
cluster 2
crawl 3
ops 4
'
# Pure files of the floors above lib, each table-tested on its own.
PURE='
frontier/bloom.c frontier/counts.c frontier/keys.c frontier/policy.c frontier/urlset.c frontier/wheel.c
cluster/clusterend.c cluster/donelog.c cluster/fpset.c cluster/lease.c
net/ctlreq.c net/credentials.c net/httpauth.c
crawl/css.c crawl/entity.c crawl/extract.c crawl/feed.c crawl/htmltok.c crawl/ldbmanifest.c
crawl/politeness.c crawl/scope.c crawl/seedhosts.c crawl/cookiejar.c crawl/diskguard.c
ops/consolereq.c ops/ctlaction.c ops/html.c ops/logline.c ops/series.c ops/tmpl.c
'
pure() {
	[ "$1" = lib ] && return 0
	for _p in $PURE; do
		[ "$_p" = "$1/$2" ] && return 0
		[ "${_p%.c}.h" = "$1/$2" ] && return 0
	done
	return 1
}
for _p in $PURE; do
	[ -f "$src/$_p" ] || fail "tests/layers.sh lists $_p as pure, but there is no src/$_p"
done

rank() {
	echo "$FLOORS" | awk -v f="$1" '$1 == f { print $2; found = 1 } END { exit !found }'
}

# The code of a file without its comments (string literals kept).
code() {
	${CC:-cc} -fpreprocessed -dD -E -P "$1" 2>/dev/null
}

for dir in "$src"/*/; do
	floor=$(basename "$dir")
	case $floor in
	*/ | llhttp) continue ;;
	esac
	r=$(rank "$floor") || { fail "src/$floor/ is not in the floor table of tests/layers.sh"; continue; }
	for f in "$dir"*.c "$dir"*.h; do
		[ -f "$f" ] || continue
		rel=src/$floor/$(basename "$f")
		# 1: includes of "FLOOR/name.h"
		for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
			case $inc in
			*/*) ;;
			*) fail "$rel includes \"$inc\": name its floor (\"FLOOR/$inc\")"; continue ;;
			esac
			to=${inc%%/*}
			if [ "$(basename "$inc")" = private.h ] && [ "$to" != "$floor" ]; then
				fail "$rel includes $inc, the private header of another floor"
				continue
			fi
			case $(basename "$inc") in
			?*private.h)
				_own=$(basename "$inc" private.h)
				case $to/$(basename "$f") in
				"$floor/$_own"*) ;;
				*) fail "$rel includes $inc, private to src/$to/$_own*" ;;
				esac
				continue
				;;
			esac
			[ "$to" = "$floor" ] && continue
			tr=$(rank "$to") || { fail "$rel includes $inc: no floor '$to'"; continue; }
			if [ "$tr" -gt "$r" ]; then
				fail "$rel includes $inc: $floor may not include the higher floor $to"
			elif [ "$tr" -eq "$r" ]; then
				fail "$rel includes $inc: $floor and $to are siblings"
			fi
		done
		# 2: pure files
		pure "$floor" "$(basename "$f")" || continue
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^>]*\)>.*/\1/p' "$f" | while read -r inc; do
			case $inc in
			uv.h | leveldb/* | ares.h | ares_*.h | sys/socket.h | sys/un.h | netinet/* | \
			netdb.h | fcntl.h | unistd.h | dirent.h | sys/stat.h | sys/mman.h | openssl/*)
				echo "FAIL: $rel includes <$inc>: a pure file does no I/O" ;;
			esac
		done | grep . && fails=$((fails + 1))
		calls=$(code "$f" | grep -n -E '(^|[^A-Za-z0-9_.>])(fopen|fdopen|freopen|open|openat|creat|read|write|pread|pwrite|fread|fgets|getline|opendir|mkdir|unlink|rename|socket|connect)[[:space:]]*\(')
		prints=$(code "$f" | grep -n -E '(^|[^A-Za-z0-9_.>])(fprintf|fputs|fputc|putc|fwrite)[[:space:]]*\(' | grep -v stderr)
		calls=$calls$prints
		[ -z "$calls" ] || fail "$rel does file or socket I/O (it is pure): $(echo "$calls" | head -3)"
	done
done

# 3: files calling each other, from the objects of this build.
command -v nm >/dev/null 2>&1 || { echo "FAIL: nm (binutils) is needed to check the calls"; exit 1; }
objs=$(cd "$top_builddir" && find src -name '*.o' ! -path 'src/llhttp/*' 2>/dev/null | sort)
n=0
for o in $objs; do
	c=${o%.o}.c
	[ -f "$top_srcdir/$c" ] || continue	# a stale object of a moved file
	nm "$top_builddir/$o" | awk -v f="${o%.o}" '
		$2 ~ /^[TDBR]$/ { print "D", f, $3 }
		$1 == "U" { print "U", f, $2 }'
	n=$((n + 1))
done >layers.syms
if [ "$n" -lt 20 ]; then
	fail "only $n objects built under $top_builddir/src: build tern before this test"
else
	# Which file reaches which through calls (a transitive closure over at
	# most a few hundred files); files that reach each other are in a cycle,
	# two files calling each other being the shortest.
	cycles=$(awk '
		$1 == "D" { def[$3] = $2; next }
		{ use[NR] = $2 " " $3 }
		END {
			for (i in use) {
				split(use[i], u, " ")
				if ((u[2] in def) && def[u[2]] != u[1]) {
					r[u[1], def[u[2]]] = 1
					node[u[1]] = 1
					node[def[u[2]]] = 1
				}
			}
			for (k in node)
				for (i in node)
					if ((i, k) in r)
						for (j in node)
							if ((k, j) in r)
								r[i, j] = 1
			for (i in node) {
				if (i in seen || !((i, i) in r))
					continue
				line = i
				for (j in node)
					if (j != i && ((i, j) in r) && ((j, i) in r)) {
						line = line " " j
						seen[j] = 1
					}
				print line
			}
		}' layers.syms)
	[ -z "$cycles" ] || fail "files that call each other, directly or around a cycle: $cycles"
	echo "checked the calls between $n objects"
fi
rm -f layers.syms
[ "$fails" -eq 0 ] || exit 1
echo "floors hold"

#!/bin/sh
# configure names the Debian package to install when a dependency is
# missing. A missing library is simulated by configure's own cache
# variables (the library search and pkg-config both "fail"), so the test
# needs no package removed from the machine.
set -u
: "${top_srcdir:?}"
fails=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# expect DESCRIPTION PACKAGE configure-arguments...
expect() {
	desc=$1 pkg=$2
	shift 2
	(cd "$t" && "$top_srcdir/configure" -q "$@" >out.txt 2>&1)
	if [ $? -eq 0 ]; then
		echo "FAIL: $desc: configure succeeded"
		fails=$((fails + 1))
	elif ! grep -q "install the Debian package $pkg" "$t/out.txt"; then
		echo "FAIL: $desc: message does not name $pkg: $(tail -3 "$t/out.txt")"
		fails=$((fails + 1))
	else
		echo "ok: $desc names $pkg"
	fi
}

nopc="PKG_CONFIG=/bin/false"
expect "libuv missing" libuv1-dev $nopc ac_cv_search_uv_loop_init=no
expect "c-ares missing" libc-ares-dev $nopc ac_cv_search_uv_loop_init=-luv ac_cv_search_ares_init_options=no
expect "LevelDB missing" libleveldb-dev ac_cv_search_leveldb_open=no
expect "llhttp missing" node-llhttp --with-llhttp="$t/nowhere"
expect "inih missing" libinih-dev $nopc ac_cv_search_uv_loop_init=-luv \
	ac_cv_search_ares_init_options=-lcares ac_cv_search_SSL_CTX_new=-lssl ac_cv_search_inflate=-lz \
	ac_cv_search_ini_parse_stream=no
expect "expat missing" libexpat1-dev $nopc ac_cv_search_uv_loop_init=-luv \
	ac_cv_search_ares_init_options=-lcares ac_cv_search_SSL_CTX_new=-lssl ac_cv_search_inflate=-lz \
	ac_cv_search_ini_parse_stream=-linih ac_cv_search_json_loads=-ljansson \
	ac_cv_search_idn2_to_ascii_8z=-lidn2 ac_cv_search_psl_builtin=-lpsl \
	ac_cv_search_XML_ParserCreate_MM=no
expect "brotli missing" libbrotli-dev $nopc ac_cv_search_uv_loop_init=-luv \
	ac_cv_search_ares_init_options=-lcares ac_cv_search_SSL_CTX_new=-lssl ac_cv_search_inflate=-lz \
	ac_cv_search_ini_parse_stream=-linih ac_cv_search_json_loads=-ljansson \
	ac_cv_search_idn2_to_ascii_8z=-lidn2 ac_cv_search_psl_builtin=-lpsl \
	ac_cv_search_XML_ParserCreate_MM=-lexpat ac_cv_search_BrotliDecoderDecompressStream=no
expect "zstd missing" libzstd-dev $nopc ac_cv_search_uv_loop_init=-luv \
	ac_cv_search_ares_init_options=-lcares ac_cv_search_SSL_CTX_new=-lssl ac_cv_search_inflate=-lz \
	ac_cv_search_ini_parse_stream=-linih ac_cv_search_json_loads=-ljansson \
	ac_cv_search_idn2_to_ascii_8z=-lidn2 ac_cv_search_psl_builtin=-lpsl \
	ac_cv_search_XML_ParserCreate_MM=-lexpat ac_cv_search_BrotliDecoderDecompressStream=-lbrotlidec \
	ac_cv_search_BrotliEncoderCompress=-lbrotlienc ac_cv_search_ZSTD_decompressStream=no
expect "nats.c missing" libnats-dev $nopc ac_cv_search_uv_loop_init=-luv \
	ac_cv_search_ares_init_options=-lcares ac_cv_search_SSL_CTX_new=-lssl ac_cv_search_inflate=-lz \
	ac_cv_search_ini_parse_stream=-linih ac_cv_search_json_loads=-ljansson \
	ac_cv_search_idn2_to_ascii_8z=-lidn2 ac_cv_search_psl_builtin=-lpsl \
	ac_cv_search_XML_ParserCreate_MM=-lexpat ac_cv_search_natsConnection_Connect=no
expect "PCRE2 missing" libpcre2-dev $nopc ac_cv_search_uv_loop_init=-luv \
	ac_cv_search_ares_init_options=-lcares ac_cv_search_SSL_CTX_new=-lssl ac_cv_search_inflate=-lz \
	ac_cv_search_ini_parse_stream=-linih ac_cv_search_json_loads=-ljansson \
	ac_cv_search_idn2_to_ascii_8z=-lidn2 ac_cv_search_psl_builtin=-lpsl \
	ac_cv_search_XML_ParserCreate_MM=-lexpat ac_cv_search_zip_source_file=-lzip \
	ac_cv_search_natsConnection_Connect=-lnats ac_cv_search_pcre2_compile_8=no
[ $fails -eq 0 ]

# Sourced by bench/cms/setup.sh, run.sh and teardown.sh: where the site
# lives and how its servers are started and stopped.
#
# Everything is under CMS_DIR (default /tmp/tern-cms): a copy of Debian's
# WordPress (wp/, with its own wp-config.php and uploads), MariaDB's data
# directory (db/), and run/ with the sockets, configurations, logs and pid
# files of the servers started here. Servers listen on loopback or on unix
# sockets only, run in the foreground as children of the script that
# started them and are stopped by the pid in their run/*.pid file, so
# teardown.sh can stop what an interrupted run left behind. No system
# service is started, stopped or reconfigured.

CMS_DIR=${CMS_DIR:-${TMPDIR:-/tmp}/tern-cms}
CMS_WP=$CMS_DIR/wp
CMS_RUN=$CMS_DIR/run
CMS_SOCK=$CMS_RUN/mysqld.sock
CMS_PHP_SOCK=$CMS_RUN/php-fpm.sock
CMS_HERE=$(cd "$(dirname "$0")" && pwd)
CMS_TOP=$(cd "$CMS_HERE/../.." && pwd)
CMS_MARIADBD=${CMS_MARIADBD:-/usr/sbin/mariadbd}
CMS_FPM=${CMS_FPM:-$(ls /usr/sbin/php-fpm* 2>/dev/null | sort -V | tail -1)}
export CMS_DIR CMS_WP

case ":$PATH:" in
*:/usr/sbin:*) ;;
*) PATH=$PATH:/usr/sbin:/sbin; export PATH ;;
esac

cms_die() {
	echo "bench/cms: $*" >&2
	exit 1
}

cms_log() {
	echo "bench/cms: $*"
}

# cms_wait WHAT PID CMD...: waits up to 60 s for CMD to succeed while PID lives.
cms_wait() {
	_what=$1 _pid=$2
	shift 2
	_i=0
	while [ $_i -lt 600 ]; do
		kill -0 "$_pid" 2>/dev/null || return 1
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	echo "bench/cms: $_what did not come up in 60 s" >&2
	return 1
}

# cms_stop NAME: stops the server whose pid is in run/NAME.pid (TERM, up to
# 20 s of grace, then KILL) and removes the pid file.
cms_stop() {
	_f=$CMS_RUN/$1.pid
	[ -f "$_f" ] || return 0
	_p=$(cat "$_f")
	if [ -n "$_p" ] && kill -0 "$_p" 2>/dev/null; then
		kill -TERM "$_p" 2>/dev/null
		_i=0
		while kill -0 "$_p" 2>/dev/null && [ $_i -lt 200 ]; do
			ps -o stat= -p "$_p" 2>/dev/null | grep -q Z && break
			sleep 0.1
			_i=$((_i + 1))
		done
		if kill -0 "$_p" 2>/dev/null && ! ps -o stat= -p "$_p" 2>/dev/null | grep -q Z; then
			echo "bench/cms: $1 (pid $_p) ignored TERM, killing it" >&2
			kill -KILL "$_p" 2>/dev/null
		fi
		wait "$_p" 2>/dev/null
	fi
	rm -f "$_f"
}

cms_stop_all() {
	for _n in nginx php-fpm mariadb; do
		cms_stop "$_n"
	done
}

# The database server: its own data directory, a unix socket, no TCP.
cms_db_start() {
	mkdir -p "$CMS_RUN"
	rm -f "$CMS_SOCK"
	"$CMS_MARIADBD" --no-defaults --datadir="$CMS_DIR/db" --socket="$CMS_SOCK" \
		--skip-networking --user="$(id -un)" --pid-file="$CMS_RUN/mariadbd.pid" \
		--log-error="$CMS_RUN/mariadb.err" --innodb-buffer-pool-size=64M \
		--innodb-log-file-size=48M --skip-log-bin --character-set-server=utf8mb4 \
		>"$CMS_RUN/mariadb.out" 2>&1 &
	echo $! >"$CMS_RUN/mariadb.pid"
	cms_wait "mariadbd" "$(cat "$CMS_RUN/mariadb.pid")" test -S "$CMS_SOCK" ||
		cms_die "mariadbd did not start: $(tail -5 "$CMS_RUN/mariadb.err" 2>/dev/null)"
	cms_wait "mariadbd" "$(cat "$CMS_RUN/mariadb.pid")" mariadb --no-defaults --socket="$CMS_SOCK" -uroot -e 'select 1' ||
		cms_die "mariadbd does not answer: $(tail -5 "$CMS_RUN/mariadb.err" 2>/dev/null)"
}

# php-fpm: one pool on a unix socket, as the invoking user.
cms_fpm_start() {
	[ -x "$CMS_FPM" ] || cms_die "no php-fpm: run bench/cms/setup.sh"
	_u=$(id -un) _g=$(id -gn)
	cat >"$CMS_RUN/php-fpm.conf" <<EOC
[global]
pid = $CMS_RUN/php-fpm.master.pid
error_log = $CMS_RUN/php-fpm.log
daemonize = no

[www]
user = $_u
group = $_g
listen = $CMS_PHP_SOCK
listen.mode = 0666
pm = static
pm.max_children = 4
catch_workers_output = yes
php_admin_value[error_log] = $CMS_RUN/php-errors.log
php_admin_flag[log_errors] = on
php_admin_value[memory_limit] = 256M
EOC
	_root=""
	[ "$(id -u)" -eq 0 ] && _root=-R
	rm -f "$CMS_PHP_SOCK"
	"$CMS_FPM" -y "$CMS_RUN/php-fpm.conf" -F $_root >"$CMS_RUN/php-fpm.out" 2>&1 &
	echo $! >"$CMS_RUN/php-fpm.pid"
	cms_wait "php-fpm" "$(cat "$CMS_RUN/php-fpm.pid")" test -S "$CMS_PHP_SOCK" ||
		cms_die "php-fpm did not start: $(tail -5 "$CMS_RUN/php-fpm.out" "$CMS_RUN/php-fpm.log" 2>/dev/null)"
}

# A free loopback TCP port below the ephemeral range (so that no client's
# own socket takes it while nginx starts): sets CMS_PORT.
cms_port() {
	_lo=$(awk '{ print $1 }' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
	_try=0
	while [ $_try -lt 50 ]; do
		CMS_PORT=$((10000 + $(od -An -N2 -tu2 /dev/urandom) % (_lo - 10000)))
		ss -ltnH 2>/dev/null | awk -v p="$CMS_PORT" '{ q = $4; sub(/.*:/, "", q); if (q + 0 == p) f = 1 } END { exit !f }' ||
			return 0
		_try=$((_try + 1))
	done
	cms_die "no free port below $_lo"
}

# nginx on 127.0.0.1:CMS_PORT: www.blog.test is WordPress (try_files to
# index.php for its pretty permalinks, PHP through php-fpm), blog.test
# answers every request with a 301 to the same path on www.blog.test, as
# most sites do for their bare name. Compression as Debian's default
# configuration has it, with the text types a WordPress site serves.
# WordPress is given the Host with its port whether or not the client sent
# it: wget2 1.99.1 (Debian 12) sends "Host: www.blog.test" for
# http://www.blog.test:PORT/, and WordPress would answer each of its
# requests with a redirect to the URL with the port, the URL wget2 asked
# for. Access log: time, host, request URI, status, bytes, user agent,
# method (tab separated).
cms_nginx_start() {
	cms_port
	_c=$CMS_RUN/nginx.conf
	cat >"$_c" <<EOC
daemon off;
worker_processes 1;
user $(id -un) $(id -gn);
pid $CMS_RUN/nginx.master.pid;
error_log $CMS_RUN/nginx-error.log warn;
events { worker_connections 1024; }
http {
	include /etc/nginx/mime.types;
	default_type application/octet-stream;
	sendfile on;
	keepalive_timeout 65s;
	client_body_temp_path $CMS_RUN/nginx-body;
	fastcgi_temp_path $CMS_RUN/nginx-fastcgi;
	proxy_temp_path $CMS_RUN/nginx-proxy;
	uwsgi_temp_path $CMS_RUN/nginx-uwsgi;
	scgi_temp_path $CMS_RUN/nginx-scgi;
	gzip on;
	gzip_types text/css application/javascript application/json application/rss+xml
		application/atom+xml application/xml text/xml application/rsd+xml image/svg+xml;
	log_format tsv '\$msec\t\$host\t\$request_uri\t\$status\t\$body_bytes_sent\t\$http_user_agent\t\$request_method';
	access_log $CMS_RUN/access.tsv tsv;
	server {
		listen 127.0.0.1:$CMS_PORT default_server;
		server_name www.blog.test;
		root $CMS_WP;
		index index.php;
		location / {
			try_files \$uri \$uri/ /index.php?\$args;
		}
		location ~ \.php\$ {
			try_files \$uri =404;
			include /etc/nginx/fastcgi.conf;
			fastcgi_param HTTP_HOST \$host:\$server_port;
			fastcgi_pass unix:$CMS_PHP_SOCK;
		}
	}
	server {
		listen 127.0.0.1:$CMS_PORT;
		server_name blog.test;
		return 301 http://www.blog.test:$CMS_PORT\$request_uri;
	}
}
EOC
	nginx -p "$CMS_RUN" -c "$_c" -e "$CMS_RUN/nginx-error.log" >"$CMS_RUN/nginx.out" 2>&1 &
	echo $! >"$CMS_RUN/nginx.pid"
	cms_wait "nginx" "$(cat "$CMS_RUN/nginx.pid")" curl -s -o /dev/null "http://127.0.0.1:$CMS_PORT/" ||
		cms_die "nginx did not start: $(tail -5 "$CMS_RUN/nginx.out" "$CMS_RUN/nginx-error.log" 2>/dev/null)"
	CMS_ORIGIN=http://www.blog.test:$CMS_PORT
	export CMS_PORT CMS_ORIGIN
}

# cms_php ARGS...: bench/cms/site.php ARGS with the site's WordPress.
cms_php() {
	php -d memory_limit=512M "$CMS_HERE/site.php" "$@"
}

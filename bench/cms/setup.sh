#!/bin/sh
# Builds the WordPress site bench/cms/run.sh crawls (bench/cms/README.md):
# installs the Debian packages it needs if missing (Debian's wordpress,
# php-fpm, php-mysql, php-xml for its sitemaps, php-gd for its image sizes,
# mariadb-server, nginx, wget2; `scripts/deps --bench` lists them too),
# copies Debian's WordPress into CMS_DIR with a wp-config.php of its own,
# creates a MariaDB data directory there, installs WordPress into it and
# generates the content through WordPress's own PHP API (bench/cms/site.php):
# posts, pages, categories, tags, images in the media library, threaded
# comments. The database server runs only while this script does.
#   bench/cms/setup.sh            build the site unless CMS_DIR has one
#   bench/cms/setup.sh --force    remove CMS_DIR's site and build it again
# Needs root (apt-get; run.sh needs it for unshare). About 2 minutes once
# the packages are installed.
set -eu
. "$(dirname "$0")/env.sh"

force=0
[ "${1:-}" = "--force" ] && force=1

pkgs="wordpress wordpress-theme-twentytwentythree php-fpm php-cli php-mysql php-xml php-gd
php-mbstring mariadb-server mariadb-client nginx wget2 curl chromium nodejs iproute2"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	[ "$(id -u)" -eq 0 ] || cms_die "need root to install:$missing"
	cms_log "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get -o DPkg::Lock::Timeout=600 update -qq
	# shellcheck disable=SC2086
	apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $missing >/dev/null
fi
[ -f "$CMS_TOP/tests/node_modules/puppeteer-core/package.json" ] || "$CMS_TOP/scripts/deps"

if [ -f "$CMS_DIR/built" ] && [ $force -eq 0 ]; then
	cms_log "site already built in $CMS_DIR ($(cat "$CMS_DIR/built")); --force rebuilds it"
	exit 0
fi
[ -d "$CMS_RUN" ] && "$CMS_HERE/teardown.sh"
rm -rf "$CMS_DIR"
mkdir -p "$CMS_DIR" "$CMS_RUN"
# nginx's workers and dnsmasq may run as another user than the owner.
chmod 755 "$CMS_DIR"
trap cms_stop_all EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# WordPress: Debian's files, copied so that wp-load.php finds the
# wp-config.php below next to it (Debian's own wp-config.php reads
# /etc/wordpress/config-HOST.php, which would touch the system). Copied
# with the targets of Debian's symlinks (libjs-underscore, getID3 and
# others, relative to /usr/share): as symlinks they would point nowhere.
cms_log "copying Debian's WordPress $(dpkg-query -W -f='${Version}' wordpress) to $CMS_WP"
cp -RL /usr/share/wordpress "$CMS_WP"
rm -f "$CMS_WP/wp-config.php"
mkdir -p "$CMS_WP/wp-content/uploads"
salt=$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')
cat >"$CMS_WP/wp-config.php" <<EOC
<?php
/* Written by bench/cms/setup.sh: the database on its unix socket. */
define('DB_NAME', 'wordpress');
define('DB_USER', 'wordpress');
define('DB_PASSWORD', 'bench');
define('DB_HOST', 'localhost:$CMS_SOCK');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
define('AUTH_KEY', '$salt-1');
define('SECURE_AUTH_KEY', '$salt-2');
define('LOGGED_IN_KEY', '$salt-3');
define('NONCE_KEY', '$salt-4');
define('AUTH_SALT', '$salt-5');
define('SECURE_AUTH_SALT', '$salt-6');
define('LOGGED_IN_SALT', '$salt-7');
define('NONCE_SALT', '$salt-8');
\$table_prefix = 'wp_';
/* No network: no update checks, no cron requests to itself while crawled. */
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_DEBUG', false);
if (!defined('ABSPATH'))
	define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
EOC

# MariaDB: its own data directory; root through the unix socket.
cms_log "creating the database in $CMS_DIR/db"
mariadb-install-db --no-defaults --datadir="$CMS_DIR/db" --user="$(id -un)" \
	--auth-root-authentication-method=socket --skip-test-db >"$CMS_RUN/install-db.out" 2>&1 ||
	cms_die "mariadb-install-db failed: $(tail -5 "$CMS_RUN/install-db.out")"
cms_db_start
mariadb --no-defaults --socket="$CMS_SOCK" -uroot <<EOC || cms_die "creating the database failed"
CREATE DATABASE wordpress DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER 'wordpress'@'localhost' IDENTIFIED BY 'bench';
GRANT ALL PRIVILEGES ON wordpress.* TO 'wordpress'@'localhost';
EOC

# The origin is moved to run.sh's port at each run (site.php move).
cms_log "installing WordPress and generating content (site.php)"
t0=$(date +%s)
cms_php install http://www.blog.test:8080
cms_php content
cms_log "content generated in $(($(date +%s) - t0)) s: $(cms_php stats)"
cms_stop_all
trap - EXIT
date -u +%Y-%m-%dT%H:%M:%SZ >"$CMS_DIR/built"
cms_log "site built in $CMS_DIR"

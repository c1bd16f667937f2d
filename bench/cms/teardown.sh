#!/bin/sh
# Stops whatever bench/cms/setup.sh or run.sh left running (by the pids in
# CMS_DIR/run/*.pid: nginx, php-fpm, mariadbd, dnsmasq), as after a run
# killed with SIGKILL; run.sh and setup.sh stop their servers themselves.
#   bench/cms/teardown.sh           stop the servers, keep the site
#   bench/cms/teardown.sh --purge   also remove CMS_DIR (site, database, results)
. "$(dirname "$0")/env.sh"
[ -d "$CMS_RUN" ] && cms_stop_all
if [ "${1:-}" = "--purge" ]; then
	case $CMS_DIR in
	/ | "") cms_die "refusing to remove '$CMS_DIR'" ;;
	esac
	rm -rf "$CMS_DIR"
	cms_log "removed $CMS_DIR"
fi
exit 0

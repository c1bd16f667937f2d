#!/bin/sh
# The frontier issue's acceptance crawl: a 1,000-host x 50-page web crawled
# to completion with every check of crawl_basic.sh (each reachable page
# fetched exactly once, robots obeyed, politeness from the server's side,
# crawl.log against the manifest, the CDXJ index), less the WARC reader pass.
CRAWL_HOSTS=1000 CRAWL_PAGES=50 CRAWL_WARC_CHECK=0
export CRAWL_HOSTS CRAWL_PAGES CRAWL_WARC_CHECK
exec sh "$top_srcdir/tests/crawl/crawl_basic.sh"

/* Every configuration key, once. Included with X defined to expand the table:
 *   X(ID, "section", "key", TYPE, "default", min, max, "choices", OVERRIDABLE)
 * TYPE is one of CT_BOOL, CT_INT, CT_DOUBLE, CT_STR, CT_ENUM, CT_INTLIST.
 * min/max bound CT_INT and CT_DOUBLE (and each CT_INTLIST element); choices
 * is the '|'-separated list for CT_ENUM. OVERRIDABLE keys may be set in an
 * [override "SURT-PREFIX"] section because they are per-URI or per-queue. */

/* One key a line, as scripts/gen-conf-doc reads them. */
/* clang-format off */
/* [crawl] */
X(CRAWL_USER_AGENT, "crawl", "user-agent", CT_STR, "tern/" PACKAGE_VERSION " (+https://github.com/tern-crawler/tern)", 0, 0, "", 0)
X(CRAWL_MAX_CONNECTIONS, "crawl", "max-connections", CT_INT, "256", 1, 100000, "", 0)
X(CRAWL_MAX_HOPS, "crawl", "max-hops", CT_INT, "20", 0, 10000, "", 1)
X(CRAWL_MAX_TRANS_HOPS, "crawl", "max-trans-hops", CT_INT, "2", 0, 100, "", 1)
X(CRAWL_MAX_URI_LENGTH, "crawl", "max-uri-length", CT_INT, "2083", 16, 1048576, "", 0)
X(CRAWL_MAX_PATH_REPEATS, "crawl", "max-path-repeats", CT_INT, "2", 1, 1000, "", 1)
X(CRAWL_MAX_QUERY_LENGTH, "crawl", "max-query-length", CT_INT, "1024", 0, 1048576, "", 1)
X(CRAWL_SCOPE, "crawl", "scope", CT_STR, "seeds", 0, 0, "", 0)
X(CRAWL_PAUSE_AT_START, "crawl", "pause-at-start", CT_BOOL, "false", 0, 0, "", 0)
X(CRAWL_PAUSE_AT_FINISH, "crawl", "pause-at-finish", CT_BOOL, "false", 0, 0, "", 0)
X(CRAWL_PAUSE_BELOW_FREE_MB, "crawl", "pause-below-free-mb", CT_INT, "1024", 0, INT64_MAX, "", 0)
X(CRAWL_RESUME_ABOVE_FREE_MB, "crawl", "resume-above-free-mb", CT_INT, "2048", 0, INT64_MAX, "", 0)
X(CRAWL_MAX_PAGES, "crawl", "max-pages", CT_INT, "0", 0, INT64_MAX, "", 0)
X(CRAWL_MAX_BYTES, "crawl", "max-bytes", CT_INT, "0", 0, INT64_MAX, "", 0)
X(CRAWL_MAX_TIME_SECONDS, "crawl", "max-time-seconds", CT_INT, "0", 0, INT64_MAX, "", 0)
X(CRAWL_MODE, "crawl", "mode", CT_ENUM, "once", 0, 0, "once|continuous", 0)
X(CRAWL_SITEMAPS, "crawl", "sitemaps", CT_BOOL, "true", 0, 0, "", 1)
X(CRAWL_SEED_REDIRECTS_NEW_SEEDS, "crawl", "seed-redirects-new-seeds", CT_BOOL, "true", 0, 0, "", 0)

/* [frontier] */
X(FRONTIER_HOLD_QUEUES, "frontier", "hold-queues", CT_BOOL, "true", 0, 0, "", 0)
X(FRONTIER_BALANCE_REPLENISH_AMOUNT, "frontier", "balance-replenish-amount", CT_INT, "3000", 0, INT64_MAX, "", 1)
X(FRONTIER_QUEUE_TOTAL_BUDGET, "frontier", "queue-total-budget", CT_INT, "-1", -1, INT64_MAX, "", 1)
X(FRONTIER_ERROR_PENALTY_AMOUNT, "frontier", "error-penalty-amount", CT_INT, "100", 0, INT64_MAX, "", 1)
X(FRONTIER_COST_POLICY, "frontier", "cost-policy", CT_ENUM, "unit", 0, 0, "zero|unit|wag|anti-calendar", 1)
X(FRONTIER_URI_PRECEDENCE_POLICY, "frontier", "uri-precedence-policy", CT_ENUM, "cost", 0, 0, "base|cost|hops|preloaded", 1)
X(FRONTIER_URI_BASE_PRECEDENCE, "frontier", "uri-base-precedence", CT_INT, "1", 1, 127, "", 1)
X(FRONTIER_QUEUE_PRECEDENCE_POLICY, "frontier", "queue-precedence-policy", CT_ENUM, "base", 0, 0, "base|highest-uri|success-counts", 1)
X(FRONTIER_QUEUE_BASE_PRECEDENCE, "frontier", "queue-base-precedence", CT_INT, "3", 1, 255, "", 1)
X(FRONTIER_SUCCESS_INCREMENT_COUNTS, "frontier", "success-increment-counts", CT_INTLIST, "100,1000", 1, INT64_MAX, "", 1)
X(FRONTIER_PRECEDENCE_FLOOR, "frontier", "precedence-floor", CT_INT, "255", 1, 255, "", 0)
X(FRONTIER_QUEUE_ASSIGNMENT, "frontier", "queue-assignment", CT_ENUM, "surt-authority", 0, 0, "surt-authority|hostname|registered-domain|ip", 0)
X(FRONTIER_PARALLEL_QUEUES, "frontier", "parallel-queues", CT_INT, "1", 1, 1000, "", 1)
X(FRONTIER_PREFERENCE_EMBED_HOPS, "frontier", "preference-embed-hops", CT_INT, "1", 0, 100, "", 1)
X(FRONTIER_MAX_RETRIES, "frontier", "max-retries", CT_INT, "30", 1, 1000, "", 1)
X(FRONTIER_RETRY_DELAY_SECONDS, "frontier", "retry-delay-seconds", CT_INT, "900", 0, 31536000, "", 1)
X(FRONTIER_SNOOZE_DEACTIVATE_MS, "frontier", "snooze-deactivate-ms", CT_INT, "300000", 0, INT64_MAX, "", 0)
X(FRONTIER_READY_ORDER, "frontier", "ready-order", CT_ENUM, "fifo", 0, 0, "fifo|best-first", 0)
X(FRONTIER_HOST_DEPTH_DIVISOR, "frontier", "host-depth-divisor", CT_DOUBLE, "8.0", 1, 1000000, "", 0)

/* [politeness] */
X(POLITENESS_DELAY_FACTOR, "politeness", "delay-factor", CT_DOUBLE, "5.0", 0, 1000, "", 1)
X(POLITENESS_MIN_DELAY_MS, "politeness", "min-delay-ms", CT_INT, "3000", 0, 86400000, "", 1)
X(POLITENESS_MAX_DELAY_MS, "politeness", "max-delay-ms", CT_INT, "30000", 0, 86400000, "", 1)
X(POLITENESS_RESPECT_CRAWL_DELAY_UP_TO_SECONDS, "politeness", "respect-crawl-delay-up-to-seconds", CT_INT, "300", 0, 86400, "", 1)
X(POLITENESS_MAX_PER_HOST_BANDWIDTH_KB_SEC, "politeness", "max-per-host-bandwidth-kb-sec", CT_INT, "0", 0, INT64_MAX, "", 1)

/* [fetch] */
X(FETCH_CONNECT_TIMEOUT_MS, "fetch", "connect-timeout-ms", CT_INT, "20000", 1, 3600000, "", 0)
X(FETCH_TIMEOUT_SECONDS, "fetch", "timeout-seconds", CT_INT, "1200", 1, 86400, "", 0)
X(FETCH_IDLE_TIMEOUT_SECONDS, "fetch", "idle-timeout-seconds", CT_INT, "60", 1, 86400, "", 0)
X(FETCH_MAX_LENGTH_BYTES, "fetch", "max-length-bytes", CT_INT, "1073741824", 0, INT64_MAX, "", 1)
X(FETCH_MAX_HEADER_BYTES, "fetch", "max-header-bytes", CT_INT, "65536", 256, 16777216, "", 0)
X(FETCH_ACCEPT_ENCODING, "fetch", "accept-encoding", CT_ENUM, "gzip", 0, 0, "gzip|br|zstd|browser|identity", 0)
X(FETCH_TLS_VERIFY, "fetch", "tls-verify", CT_BOOL, "true", 0, 0, "", 0)
X(FETCH_CA_FILE, "fetch", "ca-file", CT_STR, "", 0, 0, "", 0)
X(FETCH_HTTP2, "fetch", "http2", CT_BOOL, "true", 0, 0, "", 0)
X(FETCH_ALLOW_PRIVATE_ADDRESSES, "fetch", "allow-private-addresses", CT_BOOL, "false", 0, 0, "", 0)
X(FETCH_COOKIES, "fetch", "cookies", CT_BOOL, "true", 0, 0, "", 1)
X(FETCH_COOKIE_FILE, "fetch", "cookie-file", CT_STR, "", 0, 0, "", 0)
X(FETCH_COOKIES_PER_DOMAIN, "fetch", "cookies-per-domain", CT_INT, "50", 1, 100000, "", 0)
X(FETCH_COOKIES_MAX, "fetch", "cookies-max", CT_INT, "3000", 1, 1000000, "", 0)
X(FETCH_ACCEPT_LANGUAGE, "fetch", "accept-language", CT_STR, "", 0, 0, "", 1)
X(FETCH_FROM, "fetch", "from", CT_STR, "", 0, 0, "", 0)
X(FETCH_EXTRA_HEADERS, "fetch", "extra-headers", CT_STR, "", 0, 0, "", 1)
X(FETCH_HTTP_PROXY, "fetch", "http-proxy", CT_STR, "", 0, 0, "", 0)
X(FETCH_HTTPS_PROXY, "fetch", "https-proxy", CT_STR, "", 0, 0, "", 0)
X(FETCH_NO_PROXY, "fetch", "no-proxy", CT_STR, "", 0, 0, "", 0)
X(FETCH_CREDENTIALS_FILE, "fetch", "credentials-file", CT_STR, "", 0, 0, "", 0)

/* [dns] */
X(DNS_SERVERS, "dns", "servers", CT_STR, "", 0, 0, "", 0)
X(DNS_TIMEOUT_MS, "dns", "timeout-ms", CT_INT, "5000", 1, 600000, "", 0)
X(DNS_TRIES, "dns", "tries", CT_INT, "3", 1, 20, "", 0)
X(DNS_IP_VALIDITY_SECONDS, "dns", "ip-validity-seconds", CT_INT, "21600", 0, INT64_MAX, "", 0)

/* [robots] */
X(ROBOTS_POLICY, "robots", "policy", CT_ENUM, "obey", 0, 0, "obey|ignore|calculate-only", 1)
X(ROBOTS_VALIDITY_SECONDS, "robots", "validity-seconds", CT_INT, "86400", 0, INT64_MAX, "", 0)
X(ROBOTS_ON_SERVER_ERROR, "robots", "on-server-error", CT_ENUM, "disallow", 0, 0, "disallow|allow", 1)

/* [extract] */
X(EXTRACT_EXTRACT_404S, "extract", "extract-404s", CT_BOOL, "true", 0, 0, "", 1)
X(EXTRACT_EXTRACT_INDEPENDENTLY, "extract", "extract-independently", CT_BOOL, "false", 0, 0, "", 1)
X(EXTRACT_MAX_OUTLINKS, "extract", "max-outlinks", CT_INT, "6000", 0, 10000000, "", 1)
X(EXTRACT_PROCESS_ERROR_OUTLINKS, "extract", "process-error-outlinks", CT_BOOL, "false", 0, 0, "", 1)
X(EXTRACT_FORMS, "extract", "forms", CT_BOOL, "false", 0, 0, "", 1)

/* [canonicalize]: the rules that make the already-seen key (Heritrix's defaults) */
X(CANON_LOWERCASE, "canonicalize", "lowercase", CT_BOOL, "true", 0, 0, "", 0)
X(CANON_STRIP_USERINFO, "canonicalize", "strip-userinfo", CT_BOOL, "true", 0, 0, "", 0)
X(CANON_STRIP_WWW, "canonicalize", "strip-www", CT_BOOL, "true", 0, 0, "", 0)
X(CANON_STRIP_SESSION_IDS, "canonicalize", "strip-session-ids", CT_BOOL, "true", 0, 0, "", 0)
X(CANON_STRIP_CFIDS, "canonicalize", "strip-cfids", CT_BOOL, "true", 0, 0, "", 0)
X(CANON_FIXUP_QUERY, "canonicalize", "fixup-query", CT_BOOL, "true", 0, 0, "", 0)

/* [warc] */
X(WARC_ENABLED, "warc", "enabled", CT_BOOL, "true", 0, 0, "", 0)
X(WARC_PREFIX, "warc", "prefix", CT_STR, "TERN", 0, 0, "", 0)
X(WARC_MAX_SIZE_BYTES, "warc", "max-size-bytes", CT_INT, "1000000000", 4096, INT64_MAX, "", 0)
X(WARC_DEDUP, "warc", "dedup", CT_ENUM, "digest", 0, 0, "digest|off", 0)
X(WARC_VERSION, "warc", "version", CT_ENUM, "1.1", 0, 0, "1.1|1.0", 0)
X(WARC_WACZ, "warc", "wacz", CT_BOOL, "false", 0, 0, "", 0)
X(WARC_WACZ_TITLE, "warc", "wacz-title", CT_STR, "", 0, 0, "", 0)
X(WARC_WACZ_DESCRIPTION, "warc", "wacz-description", CT_STR, "", 0, 0, "", 0)

/* [revisit]: continuous crawls (crawl.mode = continuous) */
X(REVISIT_INITIAL_INTERVAL_SECONDS, "revisit", "initial-interval-seconds", CT_INT, "86400", 1, 315360000, "", 1)
X(REVISIT_MIN_INTERVAL_SECONDS, "revisit", "min-interval-seconds", CT_INT, "3600", 1, 315360000, "", 1)
X(REVISIT_MAX_INTERVAL_SECONDS, "revisit", "max-interval-seconds", CT_INT, "2592000", 1, 315360000, "", 1)
X(REVISIT_CHANGED_FACTOR, "revisit", "changed-factor", CT_DOUBLE, "1.5", 1, 1000, "", 1)
X(REVISIT_UNCHANGED_FACTOR, "revisit", "unchanged-factor", CT_DOUBLE, "1.5", 1, 1000, "", 1)
X(REVISIT_CONDITIONAL_REQUESTS, "revisit", "conditional-requests", CT_BOOL, "true", 0, 0, "", 1)

/* [checkpoint] */
X(CHECKPOINT_INTERVAL_MINUTES, "checkpoint", "interval-minutes", CT_INT, "0", 0, INT64_MAX, "", 0)
X(CHECKPOINT_ON_SHUTDOWN, "checkpoint", "on-shutdown", CT_BOOL, "true", 0, 0, "", 0)
X(CHECKPOINT_FORGET_ALL_BUT_LATEST, "checkpoint", "forget-all-but-latest", CT_BOOL, "false", 0, 0, "", 0)

/* [storage] */
X(STORAGE_CACHE_MB, "storage", "cache-mb", CT_INT, "8", 1, 65536, "", 0)
X(STORAGE_WRITE_BUFFER_MB, "storage", "write-buffer-mb", CT_INT, "16", 1, 4096, "", 0)
X(STORAGE_SEEN_MEMORY_MB, "storage", "seen-memory-mb", CT_INT, "8", 1, 65536, "", 0)
X(STORAGE_SEEN_BLOOM_BITS, "storage", "seen-bloom-bits", CT_INT, "16", 4, 32, "", 0)

/* [console] */
X(CONSOLE_LISTEN, "console", "listen", CT_STR, "", 0, 0, "", 0)
X(CONSOLE_HOST_NAMES, "console", "host-names", CT_STR, "", 0, 0, "", 0)

/* [cluster]: several tern processes sharing one crawl over NATS JetStream
 * (doc/cluster.md); read at start */
X(CLUSTER_URL, "cluster", "url", CT_STR, "", 0, 0, "", 0)
X(CLUSTER_CRAWL_ID, "cluster", "crawl-id", CT_STR, "", 0, 0, "", 0)
X(CLUSTER_NODE_ID, "cluster", "node-id", CT_STR, "", 0, 0, "", 0)
X(CLUSTER_PARTITIONS, "cluster", "partitions", CT_INT, "64", 1, 4096, "", 0)
X(CLUSTER_LEASE_SECONDS, "cluster", "lease-seconds", CT_INT, "10", 2, 3600, "", 0)
X(CLUSTER_REPLICAS, "cluster", "replicas", CT_INT, "1", 1, 5, "", 0)
X(CLUSTER_API_TIMEOUT_MS, "cluster", "api-timeout-ms", CT_INT, "2000", 100, 60000, "", 0)
X(CLUSTER_API_RETRIES, "cluster", "api-retries", CT_INT, "6", 0, 100, "", 0)
X(CLUSTER_API_BACKOFF_MS, "cluster", "api-backoff-ms", CT_INT, "250", 1, 60000, "", 0)
X(CLUSTER_COMPACT_KIB, "cluster", "compact-kib", CT_INT, "4096", 0, 1048576, "", 0)
X(CLUSTER_PARTITION_BY, "cluster", "partition-by", CT_ENUM, "registered-domain", 0, 0, "registered-domain|queue", 0)
X(CLUSTER_TLS_CA_FILE, "cluster", "tls-ca-file", CT_STR, "", 0, 0, "", 0)
X(CLUSTER_TLS_CERT_FILE, "cluster", "tls-cert-file", CT_STR, "", 0, 0, "", 0)
X(CLUSTER_TLS_KEY_FILE, "cluster", "tls-key-file", CT_STR, "", 0, 0, "", 0)
X(CLUSTER_TLS_HOSTNAME, "cluster", "tls-hostname", CT_STR, "", 0, 0, "", 0)
X(CLUSTER_CREDS_FILE, "cluster", "creds-file", CT_STR, "", 0, 0, "", 0)
X(CLUSTER_NKEY_FILE, "cluster", "nkey-file", CT_STR, "", 0, 0, "", 0)
/* clang-format on */

/* Key and value encodings of the frontier store. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "frontier/keys.h"
#include "lib/robots.h"
#include "lib/history.h"

static int test_keys_cmp(const struct buf *a, const struct buf *b)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int r = memcmp(a->data, b->data, n);

	return r != 0 ? r : (a->len > b->len) - (a->len < b->len);
}

/* Checklist 6: emission order is directive, then precedence, then ordinal;
 * within a time segment each queue is one contiguous range, and the keys of
 * a later segment sort after every key of an earlier one. */
static void test_keys_uri_order(void **state)
{
	static const struct {
		const char *q;
		int d, p;
		uint64_t o;
	} order[] = {
	    {"com,a,", 0, 9, 900},
	    {"com,a,", 1, 0, 5},
	    {"com,a,", 3, 1, 2},
	    {"com,a,", 3, 1, 300},
	    {"com,a,", 3, 1, 256 * 256 + 1},
	    {"com,a,", 3, 2, 1},
	    {"com,a,", 3, 255, 1},
	    {"com,a,b,", 0, 0, 1},
	    {"com,ab,", 0, 0, 1},
	    {"com,ab,", 3, 255, (1ull << KEYS_SEGMENT_SHIFT) - 1},
	    {"com,a,", 0, 0, 1ull << KEYS_SEGMENT_SHIFT},
	    {"com,a,", 0, 0, UINT64_MAX},
	};
	struct buf prev = BUF_INIT, cur = BUF_INIT, pre = BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		buf_reset(&cur);
		keys_uri(&cur, order[i].q, order[i].d, order[i].p, order[i].o);
		if (i > 0)
			assert_true(test_keys_cmp(&prev, &cur) < 0);
		buf_reset(&prev);
		buf_append(&prev, cur.data, cur.len);
	}
	/* Every key of queue "com,a," starts with its prefix, none of
	 * "com,a,b," does. */
	keys_uri_prefix(&pre, 0, "com,a,");
	buf_reset(&cur);
	keys_uri(&cur, "com,a,b,", 0, 0, 1);
	assert_false(cur.len >= pre.len && memcmp(cur.data, pre.data, pre.len) == 0);
	buf_reset(&cur);
	keys_uri(&cur, "com,a,", 0, 0, 1ull << KEYS_SEGMENT_SHIFT);
	assert_false(cur.len >= pre.len && memcmp(cur.data, pre.data, pre.len) == 0);
	buf_reset(&cur);
	keys_uri(&cur, "com,a,", 3, 300, 7); /* precedence clipped at 255 */
	assert_true(memcmp(cur.data, pre.data, pre.len) == 0);
	/* A place sought in a segment is the key there. */
	buf_reset(&pre);
	keys_uri_at(&pre, 0, "com,a,", 3, 255, 7);
	assert_int_equal(test_keys_cmp(&pre, &cur), 0);
	/* The last segment takes every ordinal past it. */
	assert_true(keys_segment(0) == 0);
	assert_true(keys_segment((1ull << KEYS_SEGMENT_SHIFT) - 1) == 0);
	assert_true(keys_segment(1ull << KEYS_SEGMENT_SHIFT) == 1);
	assert_true(keys_segment(UINT64_MAX) == UINT32_MAX);
	buf_free(&prev);
	buf_free(&cur);
	buf_free(&pre);
}

static void test_keys_uri_parse(void **state)
{
	struct buf k = BUF_INIT;
	const char *q;
	size_t ql;
	int d, p;
	uint64_t o;

	keys_uri(&k, "org,example,", 2, 7, 0x0102030405060708ull);
	assert_int_equal(keys_uri_parse(k.data, k.len, &q, &ql, &d, &p, &o), 0);
	assert_int_equal(ql, strlen("org,example,"));
	assert_memory_equal(q, "org,example,", ql);
	assert_int_equal(d, 2);
	assert_int_equal(p, 7);
	assert_true(o == 0x0102030405060708ull);
	assert_int_equal(keys_uri_parse(k.data, k.len - 1, &q, &ql, &d, &p, &o), -1);
	assert_int_equal(keys_uri_parse("q", 1, &q, &ql, &d, &p, &o), -1);
	/* A key whose segment is not its ordinal's is not a URI's. */
	buf_reset(&k);
	keys_uri_at(&k, 1, "org,example,", 2, 7, 5);
	assert_int_equal(keys_uri_parse(k.data, k.len, &q, &ql, &d, &p, &o), -1);
	buf_reset(&k);
	keys_uri_at(&k, 1, "org,example,", 2, 7, 1ull << KEYS_SEGMENT_SHIFT);
	assert_int_equal(keys_uri_parse(k.data, k.len, &q, &ql, &d, &p, &o), 0);
	assert_true(o == 1ull << KEYS_SEGMENT_SHIFT);
	buf_reset(&k);
	keys_inactive(&k, 4, 99);
	assert_int_equal(keys_uri_parse(k.data, k.len, &q, &ql, &d, &p, &o), -1);
	assert_int_equal(keys_inactive_parse(k.data, k.len, &p, &o), 0);
	assert_int_equal(p, 4);
	assert_true(o == 99);
	buf_free(&k);
}

/* Inactive keys sort by precedence, then FIFO by sequence. */
static void test_keys_inactive_order(void **state)
{
	struct buf a = BUF_INIT, b = BUF_INIT, c = BUF_INIT;

	keys_inactive(&a, 1, 1000);
	keys_inactive(&b, 2, 1);
	keys_inactive(&c, 2, 2);
	assert_true(test_keys_cmp(&a, &b) < 0);
	assert_true(test_keys_cmp(&b, &c) < 0);
	buf_free(&a);
	buf_free(&b);
	buf_free(&c);
}

static void test_keys_qkey_valid(void **state)
{
	char big[1100];

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_true(keys_qkey_valid("com,example,"));
	assert_false(keys_qkey_valid(""));
	assert_false(keys_qkey_valid(NULL));
	assert_false(keys_qkey_valid(big));
}

static void test_keys_curi_roundtrip(void **state)
{
	struct curi *c = curi_new("http://example.com/a?b", "http://example.com/", "LLE", 0);
	struct curi *d;
	struct buf v = BUF_INIT;
	size_t n;

	c->precedence = 5;
	c->directive = 1;
	c->attempts = 3;
	c->cost = 42;
	c->ordinal = 1ull << 50;
	keys_curi_encode(&v, c);
	assert_int_equal(keys_curi_decode(v.data, v.len, &d), 0);
	assert_string_equal(d->uri, c->uri);
	assert_string_equal(d->via, c->via);
	assert_string_equal(d->hops, "LLE");
	assert_int_equal(d->precedence, 5);
	assert_int_equal(d->directive, 1);
	assert_int_equal(d->attempts, 3);
	assert_int_equal(d->cost, 42);
	assert_true(d->ordinal == 1ull << 50);
	assert_null(d->queue_key);
	curi_free(d);
	/* Every truncation is refused, never read past. */
	for (n = 0; n < v.len; n++) {
		char *copy = malloc(n + 1);

		memcpy(copy, v.data, n);
		assert_int_equal(keys_curi_decode(copy, n, &d), -1);
		assert_null(d);
		free(copy);
	}
	/* A seed: no via. */
	curi_free(c);
	c = curi_new("http://example.com/", NULL, "", CURI_SEED);
	buf_reset(&v);
	keys_curi_encode(&v, c);
	assert_int_equal(keys_curi_decode(v.data, v.len, &d), 0);
	assert_null(d->via);
	assert_string_equal(d->hops, "");
	assert_int_equal(d->flags, CURI_SEED);
	curi_free(d);
	curi_free(c);
	buf_free(&v);
}

/* The fetch history travels in its URI's record: every field comes back,
 * a SHA-1 digest is stored as 20 bytes (and others as text), and a record
 * cut anywhere, history included, is refused. */
static void test_keys_curi_history(void **state)
{
	static const char *const digests[] = {
	    "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", /* stored as 20 bytes */
	    "sha1:3i42h3s6nnfq2msvx7xzkyayscx5qbyj", /* not the canonical form: text */
	    "sha256:abc",
	    NULL,
	};
	size_t i, n;

	for (i = 0; i < sizeof(digests) / sizeof(digests[0]); i++) {
		struct curi *c = curi_new("http://example.com/p", NULL, "", CURI_SEED);
		struct curi *d;
		struct buf v = BUF_INIT, plain = BUF_INIT;
		struct history *h;

		c->queue_key = strdup("com,example,");
		keys_curi_encode(&plain, c);
		h = c->history = history_new();
		h->digest = digests[i] != NULL ? strdup(digests[i]) : NULL;
		h->etag = strdup("W/\"x-1\"");
		h->last_modified = i == 0 ? strdup("Tue, 15 Nov 1994 12:45:26 GMT") : NULL;
		h->content_us = 1700000000123456LL;
		h->content_uri = i == 1 ? strdup("http://example.com/other") : NULL;
		h->last_visit_ms = 1700000000123LL;
		h->last_change_ms = -5;
		h->visits = 7;
		h->changes = 3;
		h->not_modified = 2;
		h->unchanged = 2;
		h->interval_s = 5400;
		h->due_ms = 1700005400123LL;
		keys_curi_encode(&v, c);
		assert_int_equal(keys_curi_decode(v.data, v.len, &d), 0);
		assert_non_null(d->history);
		assert_string_equal(d->queue_key, "com,example,");
		if (digests[i] != NULL)
			assert_string_equal(d->history->digest, digests[i]);
		else
			assert_null(d->history->digest);
		assert_string_equal(d->history->etag, h->etag);
		if (i == 0)
			assert_string_equal(d->history->last_modified, h->last_modified);
		else
			assert_null(d->history->last_modified);
		if (i == 1)
			assert_string_equal(d->history->content_uri, h->content_uri);
		else
			assert_null(d->history->content_uri);
		assert_true(d->history->content_us == h->content_us);
		assert_true(d->history->last_visit_ms == h->last_visit_ms);
		assert_true(d->history->last_change_ms == -5);
		assert_true(d->history->visits == 7 && d->history->changes == 3);
		assert_true(d->history->not_modified == 2 && d->history->unchanged == 2);
		assert_true(d->history->interval_s == 5400 && d->history->due_ms == h->due_ms);
		curi_free(d);
		/* The 20-byte form: 37 text bytes become 20 + a tag. */
		if (i == 0) {
			struct buf t = BUF_INIT;

			free(h->digest);
			h->digest = strdup("sha256:0123456789012345678901234567890");
			keys_curi_encode(&t, c);
			assert_true(v.len + 17 <= t.len);
			buf_free(&t);
		}
		/* A record without a history is one byte of version apart. */
		assert_true(v.len > plain.len);
		assert_int_equal(v.data[0], 2);
		assert_int_equal(plain.data[0], 1);
		for (n = 0; n < v.len; n++) {
			char *copy = malloc(n + 1);

			memcpy(copy, v.data, n);
			assert_int_equal(keys_curi_decode(copy, n, &d), -1);
			assert_null(d);
			free(copy);
		}
		buf_free(&v);
		buf_free(&plain);
		curi_free(c);
	}
}

/* Revisit keys sort by due time, then ordinal, and parse back. */
static void test_keys_revisit(void **state)
{
	static const struct {
		uint64_t due, ord;
	} order[] = {
	    {0, 5},
	    {1, 1},
	    {1, 2},
	    {255, 0},
	    {256, 0},
	    {1700000000000ull, 9},
	    {UINT64_MAX, 0},
	};
	struct buf prev = BUF_INIT, cur = BUF_INIT;
	uint64_t due, ord;
	size_t i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		buf_reset(&cur);
		keys_revisit(&cur, order[i].due, order[i].ord);
		assert_int_equal(keys_revisit_parse(cur.data, cur.len, &due, &ord), 0);
		assert_true(due == order[i].due && ord == order[i].ord);
		if (i > 0)
			assert_true(test_keys_cmp(&prev, &cur) < 0);
		buf_reset(&prev);
		buf_append(&prev, cur.data, cur.len);
	}
	assert_int_equal(keys_revisit_parse(cur.data, cur.len - 1, &due, &ord), -1);
	cur.data[0] = 'u';
	assert_int_equal(keys_revisit_parse(cur.data, cur.len, &due, &ord), -1);
	buf_free(&prev);
	buf_free(&cur);
}

static void test_keys_qmeta_roundtrip(void **state)
{
	struct keys_qmeta m, d;
	struct buf v = BUF_INIT;
	size_t n;

	memset(&m, 0, sizeof(m));
	m.state = 2;
	m.precedence = 7;
	m.filed_precedence = 7;
	m.filed_seq = 12345;
	m.count = 10;
	m.enqueues = 20;
	m.successes = 9;
	m.errors = 1;
	m.cost_count = 11;
	m.total_expenditure = -5;
	m.expenditure_at_activation = 3;
	m.last_cost = 1;
	m.active = 1;
	m.wake_ms = 1700000000000ull;
	m.failures = 4;
	assert_int_equal(keys_hist_add(&m, 3, 2), 0);
	assert_int_equal(keys_hist_add(&m, 1, 1), 0);
	m.surt = strdup("(com,example,");
	m.last_queued = strdup("http://example.com/x");
	m.head_dir = 3;
	m.head_prec = 255;
	m.head_ord = 1ull << 40;
	m.head_live = 1;
	/* Added out of order and twice: kept increasing, once each. */
	keys_qmeta_seg_add(&m, 7);
	keys_qmeta_seg_add(&m, 2);
	keys_qmeta_seg_add(&m, UINT32_MAX);
	keys_qmeta_seg_add(&m, 7);
	keys_qmeta_seg_add(&m, 0);
	keys_qmeta_seg_add(&m, 5);
	keys_qmeta_seg_remove(&m, 3);
	/* count 10: precedences 3 (2) and 1 (1) do not account for them all. */
	assert_false(keys_qmeta_uniform(&m));
	keys_dir_add(&m, 3, 9);
	keys_dir_add(&m, 300, 1);
	keys_dir_add(&m, 0, -1);
	keys_qmeta_encode(&v, &m);
	assert_int_equal(keys_qmeta_decode(v.data, v.len, &d), 0);
	assert_int_equal(d.state, 2);
	assert_int_equal(d.precedence, 7);
	assert_true(d.filed_seq == 12345);
	assert_true(d.count == 10);
	assert_int_equal(d.total_expenditure, -5);
	assert_true(d.wake_ms == 1700000000000ull);
	assert_int_equal(d.failures, 4);
	assert_int_equal(keys_hist_min(&d), 1);
	assert_string_equal(d.surt, "(com,example,");
	assert_null(d.last_peeked);
	assert_string_equal(d.last_queued, "http://example.com/x");
	assert_int_equal(d.head_dir, 3);
	assert_int_equal(d.head_prec, 255);
	assert_true(d.head_ord == 1ull << 40);
	assert_int_equal(d.head_live, 1);
	assert_int_equal(d.nsegs, 4);
	assert_true(d.dir_count[3] == 9 && d.dir_count[4] == 1 && d.dir_count[0] == 0);
	assert_false(keys_qmeta_uniform(&d));
	/* One precedence for all ten, but two directives; then one. */
	d.nhist = 1;
	d.hist_count[0] = 10;
	assert_false(keys_qmeta_uniform(&d));
	keys_dir_add(&d, 4, -1);
	keys_dir_add(&d, 3, 1);
	assert_true(keys_qmeta_uniform(&d));
	assert_true(d.segs[0] == 0 && d.segs[1] == 2 && d.segs[2] == 5 && d.segs[3] == UINT32_MAX);
	keys_qmeta_clear(&d);
	for (n = 0; n < v.len; n++)
		assert_int_equal(keys_qmeta_decode(v.data, n, &d), -1);
	keys_qmeta_clear(&m);
	buf_free(&v);
}

static void test_keys_counters_roundtrip(void **state)
{
	struct keys_counters c, d;
	struct buf v = BUF_INIT;
	size_t n;

	memset(&c, 0, sizeof(c));
	c.next_ordinal = 77;
	c.queued = 5;
	c.retired_uris = 3;
	c.inactive[3] = 2;
	c.inactive_uris[3] = 9;
	c.inactive[255] = 1;
	keys_counters_encode(&v, &c);
	assert_int_equal(keys_counters_decode(v.data, v.len, &d), 0);
	assert_memory_equal(&c, &d, sizeof(c));
	for (n = 0; n < v.len; n++)
		assert_int_equal(keys_counters_decode(v.data, n, &d), -1);
	assert_int_equal(keys_counters_decode("\x02", 1, &d), -1);
	/* A continuous crawl's revisit count: version 2, cut anywhere refused. */
	c.revisits = 1000001;
	buf_reset(&v);
	keys_counters_encode(&v, &c);
	assert_int_equal(v.data[0], 2);
	assert_int_equal(keys_counters_decode(v.data, v.len, &d), 0);
	assert_memory_equal(&c, &d, sizeof(c));
	for (n = 0; n < v.len; n++)
		assert_int_equal(keys_counters_decode(v.data, n, &d), -1);
	buf_free(&v);
}

/* The job's totals: a round trip, a shorter (older) record read with zeros
 * for what it lacks, a longer (newer) one with its extra values ignored,
 * and a cut record refused. */
static void test_keys_u64s(void **state)
{
	const uint64_t in[4] = {0, 300, 1ull << 40, UINT64_MAX};
	uint64_t out[4], wide[6], narrow[2];
	struct buf v = BUF_INIT, k = BUF_INIT;
	size_t n;

	(void)state;
	keys_u64s_encode(&v, in, 4);
	assert_int_equal(keys_u64s_decode(v.data, v.len, out, 4), 0);
	assert_memory_equal(in, out, sizeof in);
	assert_int_equal(keys_u64s_decode(v.data, v.len, wide, 6), 0);
	assert_memory_equal(in, wide, sizeof in);
	assert_true(wide[4] == 0 && wide[5] == 0);
	assert_int_equal(keys_u64s_decode(v.data, v.len, narrow, 2), 0);
	assert_true(narrow[0] == 0 && narrow[1] == 300);
	for (n = 0; n < v.len; n++) {
		assert_int_equal(keys_u64s_decode(v.data, n, out, 4), -1);
		assert_true(out[1] == 0);
	}
	keys_meta_named(&k, "job");
	assert_int_equal(k.len, 4);
	assert_memory_equal(k.data, "mjob", 4);
	buf_free(&v);
	buf_free(&k);
}

static void test_keys_hist(void **state)
{
	struct keys_qmeta m;
	int i;

	memset(&m, 0, sizeof(m));
	assert_int_equal(keys_hist_min(&m), -1);
	keys_hist_add(&m, 5, 1);
	keys_hist_add(&m, 2, 2);
	assert_int_equal(keys_hist_min(&m), 2);
	keys_hist_add(&m, 2, -1);
	assert_int_equal(keys_hist_min(&m), 2);
	keys_hist_add(&m, 2, -1);
	assert_int_equal(keys_hist_min(&m), 5);
	keys_hist_add(&m, 9, -1); /* absent: ignored */
	keys_hist_add(&m, 5, -1);
	assert_int_equal(keys_hist_min(&m), -1);
	for (i = 0; i < KEYS_HIST_MAX; i++)
		assert_int_equal(keys_hist_add(&m, 100 + i, 1), 0);
	assert_int_equal(keys_hist_add(&m, 1, 1), -1);
}

/* A robots verdict and its fetch time round-trip; a cut or altered value
 * is refused, never half-read. */
static void test_keys_robots(void **state)
{
	const char *txt = "User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n";
	struct robots *r = robots_parse(txt, strlen(txt), "tern"), *back;
	struct buf k = BUF_INIT, v = BUF_INIT;
	uint64_t at = 0;

	(void)state;
	keys_robots(&k, "https://example.com:443");
	assert_int_equal(k.data[0], 'o');
	assert_memory_equal(k.data + 1, "https://example.com:443", k.len - 1);
	keys_robots_encode(&v, 1795570000123ULL, r);
	back = keys_robots_decode(v.data, v.len, &at);
	assert_non_null(back);
	assert_int_equal(at, 1795570000123ULL);
	assert_false(robots_allowed(back, "/private/x", 10));
	assert_true(robots_allowed(back, "/public", 7));
	assert_int_equal(robots_crawl_delay_ms(back), 2000);
	robots_free(back);
	for (size_t i = 0; i < v.len; i++)
		assert_null(keys_robots_decode(v.data, i, &at));
	v.data[0] = 9;
	assert_null(keys_robots_decode(v.data, v.len, &at));
	robots_free(r);
	buf_free(&k);
	buf_free(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_keys_uri_order),
	    cmocka_unit_test(test_keys_uri_parse),
	    cmocka_unit_test(test_keys_inactive_order),
	    cmocka_unit_test(test_keys_qkey_valid),
	    cmocka_unit_test(test_keys_curi_roundtrip),
	    cmocka_unit_test(test_keys_curi_history),
	    cmocka_unit_test(test_keys_revisit),
	    cmocka_unit_test(test_keys_robots),
	    cmocka_unit_test(test_keys_qmeta_roundtrip),
	    cmocka_unit_test(test_keys_counters_roundtrip),
	    cmocka_unit_test(test_keys_u64s),
	    cmocka_unit_test(test_keys_hist),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

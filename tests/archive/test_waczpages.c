/* The pages of a WACZ package from records as the WARC reader hands them
 * over: which captures are pages, where a title comes from (the metadata
 * record's "title:", else the stored body in each content coding), seeds
 * (a redirecting seed, a seed captured twice, one never captured), WARC/1.0
 * targets, and titles that are not UTF-8. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "lib/buf.h"
#include "archive/waczpages.h"
#include "archive/warcread.h"

/* The caller's parser, plainly: what lies between the first "<title>" and
 * the next "</title>" (or the end). The real one, the crawl's extractor,
 * is tested in tests/crawl/test_extract; here what matters is what it is
 * handed: the body decoded, never more than the cap. */
static void t_title(void *arg, const char *html, size_t len, struct buf *title)
{
	const char *s = memmem(html, len, "<title>", 7), *e;

	(void)arg;
	assert_true(len <= 256u << 10);
	if (s == NULL)
		return;
	s += 7;
	e = memmem(s, len - (size_t)(s - html), "</title>", 8);
	buf_append(title, s, e != NULL ? (size_t)(e - s) : len - (size_t)(s - html));
}

struct t_pages {
	struct waczpages *p;
	struct warcread_record rec;
	unsigned serial;
};

/* Hands one record to the pages: type, target, id (a number made into a
 * UUID), the id it is concurrent to (0: none), its block. */
static void t_record(struct t_pages *t, const char *version, const char *type, const char *target,
    unsigned id, unsigned concurrent, const char *block, size_t len)
{
	buf_reset(&t->rec.header);
	buf_reset(&t->rec.block);
	buf_appendf(&t->rec.header,
	    "WARC/%s\r\nWARC-Type: %s\r\nWARC-Target-URI: %s\r\n"
	    "WARC-Date: 2026-11-21T16:00:%02u.123456Z\r\n"
	    "WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012u>\r\n",
	    version, type, target, t->serial++ % 60, id);
	if (concurrent)
		buf_appendf(&t->rec.header,
		    "WARC-Concurrent-To: <urn:uuid:00000000-0000-4000-8000-%012u>\r\n", concurrent);
	buf_appendf(&t->rec.header, "Content-Length: %zu\r\n\r\n", len);
	buf_append(&t->rec.block, block, len);
	waczpages_record(t->p, &t->rec, "f.warc.gz");
}

/* A response: HTTP head with status, type and coding (NULL: none), then
 * the body as stored. */
static void t_response(struct t_pages *t, const char *target, unsigned id, int status,
    const char *type, const char *coding, const char *body, size_t len)
{
	struct buf b = BUF_INIT;

	buf_appendf(&b, "HTTP/1.1 %d X\r\nContent-Type: %s\r\n", status, type);
	if (coding)
		buf_appendf(&b, "Content-Encoding: %s\r\n", coding);
	buf_appends(&b, "\r\n");
	buf_append(&b, body, len);
	t_record(t, "1.1", "response", target, id, 0, b.data, b.len);
	buf_free(&b);
}

static void t_compress(const char *in, int window, struct buf *out)
{
	z_stream z;
	unsigned char o[4096];
	int zr;

	memset(&z, 0, sizeof z);
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, window, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)(uintptr_t)in;
	z.avail_in = (uInt)strlen(in);
	do {
		z.next_out = o;
		z.avail_out = sizeof o;
		zr = deflate(&z, Z_FINISH);
		assert_true(zr == Z_OK || zr == Z_STREAM_END);
		buf_append(out, o, sizeof o - z.avail_out);
	} while (zr != Z_STREAM_END);
	deflateEnd(&z);
}

static char *t_write(struct t_pages *t)
{
	char *text = NULL, *err = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	waczpages_file_end(t->p);
	assert_int_equal(waczpages_write(t->p, fp, &err), 0);
	fclose(fp);
	return text;
}

static void test_pages(void **state)
{
	static const char page[] =
	    "<html><head><title>From the &lt;body&gt;</title></head><p>x</p>";
	struct t_pages t;
	struct buf gz = BUF_INIT, zl = BUF_INIT, raw = BUF_INIT;
	struct waczpages_counts c;
	char *text;
	const char *want;

	(void)state;
	memset(&t, 0, sizeof t);
	t.p = waczpages_new(t_title, NULL);
	warcread_record_init(&t.rec);
	waczpages_add_seed(t.p, "http://s.test/");
	waczpages_add_seed(t.p, "http://s.test"); /* the same seed, differently */
	waczpages_add_seed(t.p, "http://never.test/");
	waczpages_add_seed(t.p, "https://r.test/old");

	/* 1: the title kept by the crawl wins over the page's. */
	t_response(
	    &t, "http://s.test/", 1, 200, "text/html; charset=utf-8", NULL, page, strlen(page));
	t_record(&t, "1.1", "request", "http://s.test/", 2, 1, "GET / HTTP/1.1\r\n\r\n", 18);
	t_record(&t, "1.1", "metadata", "http://s.test/", 3, 1,
	    "via: \r\ntitle: Kept\r\noutlink: x\r\n", 32);
	/* 2: no metadata record: the stored body, identity. */
	t_response(&t, "http://a.test/2", 4, 200, "text/html", NULL, page, strlen(page));
	/* 3: gzip, zlib and raw deflate bodies. */
	t_compress(page, 15 + 16, &gz);
	t_response(&t, "http://a.test/3", 5, 200, "text/html", "gzip", gz.data, gz.len);
	t_compress(page, 15, &zl);
	t_response(
	    &t, "http://a.test/4", 6, 203, "application/xhtml+xml", "deflate", zl.data, zl.len);
	t_compress(page, -15, &raw);
	t_response(&t, "http://a.test/5", 7, 200, "text/html", "deflate", raw.data, raw.len);
	/* A metadata record of another capture changes nothing. */
	t_record(&t, "1.1", "metadata", "http://a.test/5", 8, 99, "title: Wrong\r\n", 14);
	/* 4: a coding not decoded: a page without a title. */
	t_response(&t, "http://a.test/6", 9, 200, "text/html", "br", "\x1b\x00", 2);
	/* 5: an empty title kept by the crawl stays empty. */
	t_response(&t, "http://a.test/7", 10, 200, "text/html", NULL, page, strlen(page));
	t_record(&t, "1.1", "metadata", "http://a.test/7", 11, 10, "title:\r\n", 8);
	/* Not pages: an error, an image, a non-HTTP target, a request. */
	t_response(&t, "http://a.test/404", 12, 404, "text/html", NULL, page, strlen(page));
	t_response(&t, "http://a.test/i.png", 13, 200, "image/png", NULL, "PNG", 3);
	t_record(&t, "1.1", "response", "dns:a.test", 14, 0, "x", 1);
	/* A seed that redirects, then its target; the first seed again. */
	t_response(&t, "https://r.test/old", 15, 301, "text/html", NULL, "", 0);
	t_response(&t, "http://s.test/", 16, 304, "text/html", NULL, "", 0);
	/* A revisit of identical content, titled by its metadata record. */
	t_record(&t, "1.1", "revisit", "http://a.test/copy", 18, 0,
	    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n", 44);
	t_record(&t, "1.1", "metadata", "http://a.test/copy", 19, 18, "title: Copy\r\n", 13);
	/* WARC/1.0 target, a Latin-1 title. */
	buf_reset(&gz);
	buf_appends(
	    &gz, "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<title>Caf\xe9</title>");
	t_record(&t, "1.0", "response", "<http://w.test/>", 20, 0, gz.data, gz.len);

	text = t_write(&t);
	want = "{\"format\":\"json-pages-1.0\",\"id\":\"pages\",\"title\":\"All Pages\"}\n"
	       "{\"id\":\"00000000-0000-4000-8000-000000000001\",\"url\":\"http://s.test/\","
	       "\"ts\":\"2026-11-21T16:00:00.123Z\",\"title\":\"Kept\"}\n"
	       "{\"id\":\"00000000-0000-4000-8000-000000000004\",\"url\":\"http://a.test/2\","
	       "\"ts\":\"2026-11-21T16:00:03.123Z\",\"title\":\"From the &lt;body&gt;\"}\n"
	       "{\"id\":\"00000000-0000-4000-8000-000000000005\",\"url\":\"http://a.test/3\","
	       "\"ts\":\"2026-11-21T16:00:04.123Z\",\"title\":\"From the &lt;body&gt;\"}\n"
	       "{\"id\":\"00000000-0000-4000-8000-000000000006\",\"url\":\"http://a.test/4\","
	       "\"ts\":\"2026-11-21T16:00:05.123Z\",\"title\":\"From the &lt;body&gt;\"}\n"
	       "{\"id\":\"00000000-0000-4000-8000-000000000007\",\"url\":\"http://a.test/5\","
	       "\"ts\":\"2026-11-21T16:00:06.123Z\",\"title\":\"From the &lt;body&gt;\"}\n"
	       "{\"id\":\"00000000-0000-4000-8000-000000000009\",\"url\":\"http://a.test/6\","
	       "\"ts\":\"2026-11-21T16:00:08.123Z\"}\n"
	       "{\"id\":\"00000000-0000-4000-8000-000000000010\",\"url\":\"http://a.test/7\","
	       "\"ts\":\"2026-11-21T16:00:09.123Z\"}\n"
	       "{\"id\":\"00000000-0000-4000-8000-000000000015\",\"url\":\"https://r.test/old\","
	       "\"ts\":\"2026-11-21T16:00:14.123Z\"}\n"
	       "{\"id\":\"00000000-0000-4000-8000-000000000018\",\"url\":\"http://a.test/copy\","
	       "\"ts\":\"2026-11-21T16:00:16.123Z\",\"title\":\"Copy\"}\n"
	       "{\"id\":\"00000000-0000-4000-8000-000000000020\",\"url\":\"http://w.test/\","
	       "\"ts\":\"2026-11-21T16:00:18.123Z\",\"title\":\"Caf\xc3\xa9\"}\n";
	assert_string_equal(text, want);
	waczpages_counts(t.p, &c);
	assert_int_equal(c.pages, 10);
	assert_int_equal(c.seeds, 2);
	assert_int_equal(c.seeds_missing, 1);
	assert_int_equal(c.titles_kept, 3);
	assert_int_equal(c.titles_parsed, 6);
	free(text);
	buf_free(&gz);
	buf_free(&zl);
	buf_free(&raw);
	warcread_record_free(&t.rec);
	waczpages_free(t.p);
}

/* A body cut by the reader's cap, a bomb, a corrupt stream, no body at
 * all: a title or none, never more than the caps. */
static void test_pages_hostile(void **state)
{
	struct t_pages t;
	struct buf big = BUF_INIT, gz = BUF_INIT;
	char *text;

	(void)state;
	memset(&t, 0, sizeof t);
	t.p = waczpages_new(t_title, NULL);
	warcread_record_init(&t.rec);
	/* 4 MiB of spaces before the title: compressed to a few KiB, decoded
	 * only up to the cap, so no title. */
	buf_reserve(&big, 4u << 20);
	memset(big.data, ' ', 4u << 20);
	big.len = 4u << 20;
	buf_appends(&big, "<title>too far</title>");
	t_compress(big.data, 15 + 16, &gz);
	t_response(&t, "http://h.test/bomb", 1, 200, "text/html", "gzip", gz.data, gz.len);
	t_response(&t, "http://h.test/corrupt", 2, 200, "text/html", "gzip",
	    "\x1f\x8b\x08\x00garbage", 12);
	t_record(&t, "1.1", "response", "http://h.test/nohead", 3, 0, "HTTP/1.1 200 OK", 15);
	t_response(&t, "http://h.test/open", 4, 200, "text/html", NULL, "<title>unclosed", 15);
	text = t_write(&t);
	assert_non_null(
	    strstr(text, "\"url\":\"http://h.test/bomb\",\"ts\":\"2026-11-21T16:00:00.123Z\"}\n"));
	assert_non_null(strstr(
	    text, "\"url\":\"http://h.test/corrupt\",\"ts\":\"2026-11-21T16:00:01.123Z\"}\n"));
	assert_null(strstr(text, "nohead")); /* no head: no type, not a page */
	assert_non_null(strstr(text, "\"title\":\"unclosed\""));
	free(text);
	buf_free(&big);
	buf_free(&gz);
	warcread_record_free(&t.rec);
	waczpages_free(t.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pages),
	    cmocka_unit_test(test_pages_hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

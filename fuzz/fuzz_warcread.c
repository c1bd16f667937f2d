/* libFuzzer target for the WARC reader: arbitrary bytes as a .warc.gz file.
 * Every record is read to the end with a small block cap, header lookups
 * run on what was parsed, and the records go through the WACZ pages (their
 * titles parsed from stored bodies, decoded) as `tern wacz` reads them. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "archive/warcread.h"
#include "archive/waczpages.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The caller's title parser, plainly: the pages are under test here. */
static void fuzz_title(void *arg, const char *html, size_t len, struct buf *title)
{
	(void)arg;
	buf_append(title, html, len < 64 ? len : 64);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *fp;
	struct warcread *r;
	struct warcread_record rec;
	struct buf v = BUF_INIT;
	struct waczpages *pages;
	char *err = NULL, *text = NULL;
	size_t tlen = 0;
	FILE *out;
	int rc, n = 0;

	if (size == 0)
		return 0;
	fp = fmemopen((void *)(uintptr_t)data, size, "rb");
	if (fp == NULL)
		return 0;
	r = warcread_new(fp, 4096);
	warcread_record_init(&rec);
	pages = waczpages_new(fuzz_title, NULL);
	waczpages_add_seed(pages, "http://example.com/");
	while ((rc = warcread_next(r, &rec, &err)) > 0 && n++ < 10000) {
		warcread_header(&rec, "WARC-Type", &v);
		warcread_header(&rec, "WARC-Target-URI", &v);
		warcread_target_uri(&rec, &v);
		waczpages_record(pages, &rec, "f.warc.gz");
	}
	free(err);
	err = NULL;
	out = open_memstream(&text, &tlen);
	if (out != NULL) {
		waczpages_write(pages, out, &err);
		fclose(out);
	}
	free(text);
	free(err);
	waczpages_free(pages);
	buf_free(&v);
	warcread_record_free(&rec);
	warcread_free(r);
	fclose(fp);
	return 0;
}

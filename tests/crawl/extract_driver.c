/* Test driver for link extraction: reads a file, feeds it to the extractor
 * in chunks, and prints one line per link, "hop TAB context TAB base TAB
 * ref", with TAB, CR, LF and backslash escaped as \t \r \n \\ (base "-" when
 * there is none), then "#meta N" and "#dropped N".
 *   extract_driver [-c] [-f] [-m MAX] [-s SEED | -b] FILE
 * -c reads CSS instead of HTML, -f reports form actions, -m sets
 * max-outlinks, -s feeds chunks of random sizes from SEED, -b feeds byte by
 * byte; the default is one chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "crawl/extract.h"
#include "lib/buf.h"

static void extract_driver_put(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case '\t':
			fputs("\\t", stdout);
			break;
		case '\n':
			fputs("\\n", stdout);
			break;
		case '\r':
			fputs("\\r", stdout);
			break;
		case '\\':
			fputs("\\\\", stdout);
			break;
		default:
			putchar(s[i]);
		}
	}
}

static void extract_driver_link_cb(void *arg, const struct extract_link *l)
{
	(void)arg;
	printf("%c\t%s\t", l->hop, l->context);
	if (l->base)
		extract_driver_put(l->base, strlen(l->base));
	else
		putchar('-');
	putchar('\t');
	extract_driver_put(l->ref, l->len);
	putchar('\n');
}

int main(int argc, char **argv)
{
	struct extract_opts o = {0, 0};
	enum extract_type type = EXTRACT_HTML;
	long seed = -1;
	int bytewise = 0, opt;
	struct buf in = BUF_INIT;
	char chunk[65536];
	size_t n, off;
	FILE *f;
	struct extract *x;

	while ((opt = getopt(argc, argv, "cfm:s:b")) != -1) {
		switch (opt) {
		case 'c':
			type = EXTRACT_CSS;
			break;
		case 'f':
			o.forms = 1;
			break;
		case 'm':
			o.max_outlinks = strtoul(optarg, NULL, 10);
			break;
		case 's':
			seed = strtol(optarg, NULL, 10);
			break;
		case 'b':
			bytewise = 1;
			break;
		default:
			fprintf(stderr,
			    "usage: extract_driver [-c] [-f] [-m MAX] [-s SEED | -b] FILE\n");
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: extract_driver [-c] [-f] [-m MAX] [-s SEED | -b] FILE\n");
		return 2;
	}
	f = fopen(argv[optind], "rb");
	if (!f) {
		perror(argv[optind]);
		return 1;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(&in, chunk, n);
	fclose(f);
	x = extract_new(type, &o, extract_driver_link_cb, NULL);
	if (seed >= 0)
		srandom((unsigned)seed);
	for (off = 0; off < in.len; off += n) {
		n = in.len - off;
		if (bytewise)
			n = 1;
		else if (seed >= 0 && n > 1)
			n = 1 + (size_t)random() % (random() % 4 ? 64 : 4096) % n;
		extract_feed(x, in.data + off, n);
	}
	extract_finish(x);
	printf("#meta %u\n#dropped %zu\n", extract_meta(x), extract_dropped(x));
	extract_free(x);
	buf_free(&in);
	return 0;
}

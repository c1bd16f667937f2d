/* The crawl's cookies: the jar, the store, the cookie file, the headers. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "crawl/cookiejar.h"
#include "crawl/cookies.h"
#include "frontier/cookiestore.h"
#include "frontier/frontier.h"
#include "lib/buf.h"
#include "lib/clock.h"
#include "lib/config.h"
#include "lib/cookie.h"
#include "lib/url.h"
#include "lib/xmalloc.h"
#include "net/fetch.h"

struct cookies {
	const struct config *cfg;
	struct frontier *f;
	struct cookiejar *jar;
	struct buf header;
	char host[256];
};

static void cookies_load_cb(void *arg, struct cookie *c)
{
	struct cookies *k = arg;

	cookiejar_load(k->jar, c, (int64_t)clock_wall_ms());
	cookie_clear(c);
}

/* The cookies of a Netscape cookies.txt, set as if a server had. */
static int cookies_read_file(struct cookies *k, const char *path, size_t *n, char **err)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	int rc = 0;

	if (fp == NULL) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &cap, fp)) >= 0) {
		struct cookie c;
		const char *why = NULL;
		int r;

		lineno++;
		r = cookie_from_netscape(line, (size_t)len, (int64_t)clock_wall_ms(), &c, &why);
		if (r == 1)
			continue;
		if (r < 0) {
			*err = xasprintf("%s:%zu: not a cookies.txt line: %s", path, lineno, why);
			rc = -1;
			break;
		}
		if (!cookie_expired(&c, (int64_t)clock_wall_ms()))
			(*n)++;
		cookiejar_set(k->jar, &c, (int64_t)clock_wall_ms());
		cookie_clear(&c);
	}
	if (rc == 0 && ferror(fp)) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		rc = -1;
	}
	free(line);
	fclose(fp);
	return rc;
}

int cookies_open(
    const struct config *cfg, struct frontier *f, struct cookies **out, char **said, char **err)
{
	struct cookies *k = xcalloc(1, sizeof(*k));
	const char *file = config_str(cfg, CK_FETCH_COOKIE_FILE);
	size_t from_file = 0;
	long stored;

	k->cfg = cfg;
	k->f = f;
	k->jar = cookiejar_new((size_t)config_int(cfg, CK_FETCH_COOKIES_PER_DOMAIN),
	    (size_t)config_int(cfg, CK_FETCH_COOKIES_MAX));
	buf_init(&k->header);
	stored = cookiestore_each(f, cookies_load_cb, k);
	if (stored < 0) {
		*err = xasprintf("reading the cookies: %s", frontier_error(f));
		cookies_close(k);
		return -1;
	}
	if (file != NULL && file[0] != '\0' && cookies_read_file(k, file, &from_file, err) < 0) {
		cookies_close(k);
		return -1;
	}
	if (file != NULL && file[0] != '\0')
		*said = xasprintf("cookies: %zu in the jar (%ld from the store, %zu from %s)",
		    cookiejar_count(k->jar), stored, from_file, file);
	else
		*said = xasprintf("cookies: %zu in the jar", cookiejar_count(k->jar));
	*out = k;
	return 0;
}

void cookies_close(struct cookies *k)
{
	if (k == NULL)
		return;
	cookiejar_free(k->jar);
	buf_free(&k->header);
	free(k);
}

int cookies_on(const struct cookies *k, const char *surt)
{
	return k != NULL && config_bool_for(k->cfg, surt, CK_FETCH_COOKIES);
}

/* The request's origin from its split URL (the host unbracketed). */
static int cookies_origin(
    struct cookies *k, const char *href, const struct url_parts *p, struct cookie_origin *o)
{
	const char *h = href + p->host_off;
	size_t hl = p->host_len, i;

	if (hl > 1 && h[0] == '[') {
		h++;
		hl -= 2;
	}
	if (hl == 0 || hl >= sizeof k->host)
		return -1;
	for (i = 0; i < hl; i++)
		k->host[i] = (h[i] >= 'A' && h[i] <= 'Z') ? (char)(h[i] - 'A' + 'a') : h[i];
	k->host[hl] = '\0';
	o->host = k->host;
	o->host_ip = p->host_ip != 0;
	o->path = href + p->path_off;
	o->path_len = p->path_len;
	o->https = p->https;
	return 0;
}

const char *cookies_for(struct cookies *k, const char *href, const struct url_parts *p)
{
	struct cookie_origin o;

	if (cookies_origin(k, href, p, &o) < 0)
		return NULL;
	if (cookiejar_header(k->jar, &o, (int64_t)clock_wall_ms(), &k->header) == 0)
		return NULL;
	return k->header.data;
}

void cookies_receive(struct cookies *k, const char *href, const struct url_parts *p,
    struct fetch *f, size_t *changed, size_t *refused, size_t *evicted)
{
	struct cookie_origin o;
	const char *name, *value;
	size_t i, nk = 0, nr = 0, ne = 0;

	if (cookies_origin(k, href, p, &o) == 0) {
		for (i = 0; fetch_header_at(f, i, &name, &value); i++) {
			struct cookie c;
			const char *why;
			int64_t now = (int64_t)clock_wall_ms();
			uint64_t before;

			if (strcasecmp(name, "Set-Cookie") != 0)
				continue;
			if (cookie_parse(value, strlen(value), &o, now, &c, &why) < 0) {
				nr++;
				continue;
			}
			before = cookiejar_news(k->jar);
			ne += cookiejar_set(k->jar, &c, now);
			cookie_clear(&c);
			nk += cookiejar_news(k->jar) != before;
		}
	}
	if (changed != NULL)
		*changed = nk;
	if (refused != NULL)
		*refused = nr;
	if (evicted != NULL)
		*evicted = ne;
}

static void cookies_change_cb(
    void *arg, const char *domain, const char *path, const char *name, const struct cookie *c)
{
	struct cookies *k = arg;

	if (c != NULL)
		cookiestore_put(k->f, c);
	else
		cookiestore_del(k->f, domain, path, name);
}

void cookies_flush(struct cookies *k)
{
	cookiejar_drain(k->jar, cookies_change_cb, k);
}

size_t cookies_count(const struct cookies *k)
{
	return cookiejar_count(k->jar);
}

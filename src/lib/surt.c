/* SURT forms and queue keys; see surt.h for the two conventions. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <idn2.h>
#include <libpsl.h>
#include "lib/surt.h"
#include "lib/url.h"
#include "lib/xmalloc.h"

/* Appends the host's labels in reverse order, each followed by sep when
 * trailing is set, or joined by sep otherwise. */
static void surt_reverse_host(const char *h, size_t n, int trailing, struct buf *out)
{
	size_t end = n, i = n;

	for (;;) {
		while (i > 0 && h[i - 1] != '.')
			i--;
		buf_append(out, h + i, end - i);
		if (trailing)
			buf_appendc(out, ',');
		if (i == 0)
			break;
		if (!trailing)
			buf_appendc(out, ',');
		end = --i;
	}
}

static void surt_lower(struct buf *b, size_t from)
{
	size_t i;

	for (i = from; i < b->len; i++)
		if (b->data[i] >= 'A' && b->data[i] <= 'Z')
			b->data[i] |= 0x20;
}

/* Heritrix's authority: "org,example,www,:8080@user". */
static void surt_heritrix_authority(const char *href, const struct url_parts *p, struct buf *out)
{
	if (p->host_ip == 4)
		buf_append(out, href + p->host_off, p->host_len);
	else
		surt_reverse_host(href + p->host_off, p->host_len, 1, out);
	if (p->has_port)
		url_append_port(out, p->port);
	if (p->user_len > 0) {
		buf_appendc(out, '@');
		buf_append(out, href + p->user_off, p->user_len);
	}
}

/* One query argument, for sorting. */
struct surt_arg {
	const char *s;
	size_t n;
};

static int surt_cmp(const void *a, const void *b)
{
	const struct surt_arg *x = a, *y = b;
	size_t n = x->n < y->n ? x->n : y->n;
	int c = memcmp(x->s, y->s, n);

	return c != 0 ? c : (x->n > y->n) - (x->n < y->n);
}

/* Python surt's query session-id patterns, applied to the query alone:
 * "^(.*)ID(?:&(.*))?$" -> "$1$2", last occurrence, at most once each. */
static size_t surt_query_session(const char *s, size_t len, int which)
{
	static const char *const names[] = {"jsessionid=", "phpsessid=", "sid="};
	size_t n, k;

	if (which < 3) {
		n = strlen(names[which]);
		if (len < n + 32 || strncasecmp(s, names[which], n) != 0)
			return 0;
		for (k = n; k < n + 32; k++)
			if (!((s[k] | 0x20) >= 'a' && (s[k] | 0x20) <= 'z') &&
			    !(s[k] >= '0' && s[k] <= '9'))
				return 0;
		n += 32;
	} else if (which == 3) {
		if (len < 45 || strncasecmp(s, "aspsessionid", 12) != 0 || s[20] != '=')
			return 0;
		for (k = 12; k < 45; k++)
			if (k != 20 && !((s[k] | 0x20) >= 'a' && (s[k] | 0x20) <= 'z'))
				return 0;
		n = 45;
	} else {
		if (len < 5 || strncasecmp(s, "cfid=", 5) != 0)
			return 0;
		for (n = 5; n < len && s[n] != '&'; n++)
			;
		if (n == 5 || len - n < 10 || strncasecmp(s + n, "&cftoken=", 9) != 0 ||
		    n + 9 >= len || s[n + 9] == '&')
			return 0;
		for (n += 9; n < len && s[n] != '&'; n++)
			;
	}
	if (n < len && s[n] != '&')
		return 0;
	return n;
}

/* pywb's query: lower-cased (done by the caller), session ids stripped,
 * arguments sorted bytewise, written only if not empty. */
static void surt_pywb_query(char *q, size_t len, struct buf *out)
{
	struct surt_arg *args;
	size_t count = 1, i, k;
	int which;

	for (which = 0; which < 5; which++) {
		for (i = len; i-- > 0;) {
			size_t n = surt_query_session(q + i, len - i, which);

			if (n == 0)
				continue;
			if (i + n < len)
				n++;
			memmove(q + i, q + i + n, len - i - n);
			len -= n;
			break;
		}
	}
	if (len == 0)
		return;
	for (i = 0; i < len; i++)
		if (q[i] == '&')
			count++;
	args = xmalloc(count * sizeof(*args));
	for (i = 0, k = 0; k < count; k++) {
		size_t j = i;

		while (j < len && q[j] != '&')
			j++;
		args[k].s = q + i;
		args[k].n = j - i;
		i = j + 1;
	}
	qsort(args, count, sizeof(*args), surt_cmp);
	buf_appendc(out, '?');
	for (k = 0; k < count; k++) {
		if (k > 0)
			buf_appendc(out, '&');
		buf_append(out, args[k].s, args[k].n);
	}
	free(args);
}

static void surt_pywb(const char *href, const struct url_parts *p, struct buf *out)
{
	const char *h = href + p->host_off;
	size_t hn = p->host_len, d = 3, plen = p->path_len, start;
	char *q;

	if (p->host_ip == 0 && hn > 3 && strncmp(h, "www", 3) == 0) {
		while (d < hn && h[d] >= '0' && h[d] <= '9')
			d++;
		if (d < hn && h[d] == '.') {
			h += d + 1;
			hn -= d + 1;
		}
	}
	surt_reverse_host(h, hn, 0, out);
	if (p->has_port)
		url_append_port(out, p->port);
	buf_appendc(out, ')');
	if (plen > 1 && href[p->path_off + plen - 1] == '/')
		plen--;
	start = out->len;
	buf_append(out, href + p->path_off, plen);
	surt_lower(out, start);
	if (p->has_query && p->query_len > 0) {
		q = xstrndup(href + p->query_off, p->query_len);
		for (d = 0; d < p->query_len; d++)
			if (q[d] >= 'A' && q[d] <= 'Z')
				q[d] |= 0x20;
		surt_pywb_query(q, p->query_len, out);
		free(q);
	}
}

int surt_from_url(const char *href, int with_scheme, struct buf *out)
{
	struct url_parts p;

	if (url_split(href, &p) < 0) {
		buf_reset(out);
		return URL_EINVAL;
	}
	return surt_from_parts(href, &p, with_scheme, out);
}

int surt_from_parts(const char *href, const struct url_parts *p, int with_scheme, struct buf *out)
{
	buf_reset(out);
	if (!with_scheme) {
		surt_pywb(href, p, out);
		return 0;
	}
	buf_append(out, href, p->scheme_len);
	buf_appends(out, "://(");
	surt_heritrix_authority(href, p, out);
	buf_appendc(out, ')');
	buf_append(out, href + p->path_off, p->path_len);
	if (p->has_query) {
		buf_appendc(out, '?');
		buf_append(out, href + p->query_off, p->query_len);
	}
	surt_lower(out, 0);
	return 0;
}

static void surt_colons_to_hash(struct buf *b, size_t from)
{
	size_t i;

	for (i = from; i < b->len; i++)
		if (b->data[i] == ':')
			b->data[i] = '#';
}

static void surt_hostname_key(const char *href, const struct url_parts *p, struct buf *out)
{
	buf_append(out, href + p->host_off, p->host_len);
	if (p->has_port)
		url_append_port(out, p->port);
	else if (p->https)
		buf_appends(out, ":443");
	surt_colons_to_hash(out, 0);
}

int surt_queue_key(const char *href, enum surt_assign how, struct buf *out)
{
	struct url_parts p;

	if (url_split(href, &p) < 0) {
		buf_reset(out);
		return URL_EINVAL;
	}
	return surt_queue_key_parts(href, &p, how, out);
}

int surt_queue_key_parts(
    const char *href, const struct url_parts *pp, enum surt_assign how, struct buf *out)
{
	const struct url_parts p = *pp;
	struct buf host = BUF_INIT, reg = BUF_INIT;
	int rc = 0;

	buf_reset(out);
	switch (how) {
	case SURT_ASSIGN_AUTHORITY:
		surt_heritrix_authority(href, &p, out);
		surt_lower(out, 0);
		surt_colons_to_hash(out, 0);
		break;
	case SURT_ASSIGN_HOSTNAME:
		surt_hostname_key(href, &p, out);
		break;
	case SURT_ASSIGN_REGDOMAIN:
		buf_append(&host, href + p.host_off, p.host_len);
		rc = surt_registered_domain(host.data, &reg);
		if (rc == 0) {
			if (p.host_ip)
				buf_append(out, reg.data, reg.len);
			else
				surt_reverse_host(reg.data, reg.len, 1, out);
			surt_colons_to_hash(out, 0);
		}
		buf_free(&host);
		buf_free(&reg);
		break;
	case SURT_ASSIGN_IP:
		if (p.host_ip) {
			buf_append(out, href + p.host_off, p.host_len);
			if (p.has_port)
				url_append_port(out, p.port);
			surt_colons_to_hash(out, 0);
		} else {
			surt_hostname_key(href, &p, out);
		}
		break;
	default:
		rc = URL_EINVAL;
	}
	return rc;
}

int surt_ip_queue_key(const char *href, const char *ip, struct buf *out)
{
	struct url_parts p;

	if (url_split(href, &p) < 0) {
		buf_reset(out);
		return URL_EINVAL;
	}
	return surt_ip_queue_key_parts(&p, ip, out);
}

int surt_ip_queue_key_parts(const struct url_parts *p, const char *ip, struct buf *out)
{
	buf_reset(out);
	if (ip == NULL || *ip == '\0')
		return URL_EINVAL;
	if (strchr(ip, ':') != NULL) {
		buf_appendc(out, '[');
		buf_appends(out, ip);
		buf_appendc(out, ']');
	} else {
		buf_appends(out, ip);
	}
	if (p->has_port)
		url_append_port(out, p->port);
	surt_colons_to_hash(out, 0);
	return 0;
}

/* Lamping and Veach's jump consistent hash: a bucket in [0, n) such that
 * going from n to n + 1 buckets moves only the keys that land in the new
 * one. */
static int surt_jump_hash(uint64_t key, int n)
{
	int64_t b = -1, j = 0;

	while (j < n) {
		b = j;
		key = key * 2862933555777941757ULL + 1;
		j = (int64_t)((double)(b + 1) * ((double)(1LL << 31) / (double)((key >> 33) + 1)));
	}
	return (int)b;
}

int surt_parallel_suffix(const char *href, int n, struct buf *out)
{
	struct url_parts p;

	if (url_split(href, &p) < 0)
		return URL_EINVAL;
	return surt_parallel_suffix_parts(href, &p, n, out);
}

int surt_parallel_suffix_parts(const char *href, const struct url_parts *p, int n, struct buf *out)
{
	const char *seg, *end;
	uint64_t h = 14695981039346656037ULL;
	int k;

	if (n <= 1 || p->path_len < 2)
		return 0;
	seg = href + p->path_off + 1;
	end = memchr(seg, '/', p->path_len - 1);
	if (end == NULL)
		return 0;
	for (; seg < end; seg++) {
		h ^= (unsigned char)*seg;
		h *= 1099511628211ULL;
	}
	k = surt_jump_hash(h, n);
	if (k > 0) {
		buf_appendc(out, '+');
		buf_appendu(out, (uint64_t)k);
	}
	return 0;
}

/* An IP literal, which libpsl must not see: a bracketed IPv6 address, or
 * dotted digits (url_resolve writes every numeric host that way). */
static int surt_is_ip(const char *host)
{
	size_t i, dots = 0;

	if (host[0] == '[' || strchr(host, ':') != NULL)
		return 1;
	for (i = 0; host[i] != '\0'; i++) {
		if (host[i] == '.')
			dots++;
		else if (host[i] < '0' || host[i] > '9')
			return 0;
	}
	return dots == 3;
}

static size_t surt_count_labels(const char *s)
{
	size_t n = 1;

	for (; *s != '\0'; s++)
		if (*s == '.')
			n++;
	return n;
}

int surt_registered_domain(const char *host, struct buf *out)
{
	const psl_ctx_t *psl = psl_builtin();
	char *uni = NULL;
	const char *reg, *h = host;
	size_t labels, i;

	buf_reset(out);
	if (host == NULL || host[0] == '\0')
		return URL_EINVAL;
	if (surt_is_ip(host) || psl == NULL) {
		buf_appends(out, host);
		return 0;
	}
	/* libpsl matches lower-case UTF-8; punycode labels are decoded for it
	 * and the answer mapped back by counting labels. */
	if (strstr(host, "xn--") != NULL && idn2_to_unicode_8z8z(host, &uni, 0) == IDN2_OK)
		h = uni;
	reg = psl_registrable_domain(psl, h);
	if (reg == NULL) {
		buf_appends(out, host);
	} else {
		labels = surt_count_labels(reg);
		i = strlen(host);
		while (i > 0) {
			if (host[i - 1] == '.' && --labels == 0)
				break;
			i--;
		}
		buf_appends(out, host + i);
	}
	idn2_free(uni);
	return 0;
}

/* asPrefix: cut after the last '/' (there is always one after "://("),
 * then https coerced to http. */
static void surt_as_prefix(struct buf *b)
{
	char *slash = strrchr(b->data, '/');

	if (slash != NULL && slash > b->data + 8)
		b->len = (size_t)(slash + 1 - b->data);
	b->data[b->len] = '\0';
	if (strncmp(b->data, "https://", 8) == 0) {
		memmove(b->data + 4, b->data + 5, b->len - 4);
		b->len--;
	}
}

int surt_seed_prefix(const char *href, struct buf *out)
{
	int rc = surt_from_url(href, 1, out);

	if (rc == 0)
		surt_as_prefix(out);
	return rc;
}

int surt_seed_prefix_plain(const char *seed, size_t len, struct buf *out)
{
	struct buf url = BUF_INIT, text = BUF_INIT;
	struct url_parts p;
	const char *colon, *period;
	int rc;

	buf_reset(out);
	/* ArchiveUtils.addImpliedHttpIfNecessary: no ':' before the first '.'
	 * means no scheme. */
	buf_append(&text, seed, len);
	colon = memchr(seed, ':', len);
	period = memchr(seed, '.', len);
	if (colon == NULL || (period != NULL && period < colon)) {
		buf_reset(&text);
		buf_appends(&text, "http://");
		buf_append(&text, seed, len);
	}
	while (text.len > 0 && (unsigned char)text.data[text.len - 1] <= ' ')
		text.len--;
	rc = url_resolve(NULL, text.data, text.len, &url);
	if (rc == 0 && url_split(url.data, &p) == 0) {
		if (text.len > 0 && text.data[text.len - 1] != '/' && p.path_len == 1 &&
		    !p.has_query) {
			/* No path was written: the open prefix, ')' dropped. */
			buf_appends(out, "http://(");
			surt_heritrix_authority(url.data, &p, out);
			surt_lower(out, 0);
		} else {
			rc = surt_seed_prefix(url.data, out);
		}
	} else if (rc == 0) {
		rc = URL_EINVAL;
	}
	buf_free(&url);
	buf_free(&text);
	return rc;
}

int surt_override_key(const char *href, struct buf *out)
{
	struct url_parts p;

	if (url_split(href, &p) < 0) {
		buf_reset(out);
		return -1;
	}
	return surt_override_key_parts(href, &p, out);
}

int surt_override_key_parts(const char *href, const struct url_parts *p, struct buf *out)
{
	const char *paren;
	size_t skip;

	if (surt_from_parts(href, p, 1, out) < 0)
		return -1;
	paren = strchr(out->data, '(');
	if (paren == NULL)
		return 0;
	skip = (size_t)(paren - out->data) + 1;
	buf_consume(out, skip);
	return 0;
}

void surt_queue_host(const char *key, struct buf *out)
{
	size_t n = strcspn(key, "#@+");
	const char *end = key + n, *p;

	buf_reset(out);
	buf_append(out, "", 0);
	if (memchr(key, ',', n) == NULL) {
		buf_append(out, key, n);
		return;
	}
	/* "org,example,www," read from its last label to its first. */
	while (end > key && end[-1] == ',')
		end--;
	while (end > key) {
		for (p = end; p > key && p[-1] != ','; p--)
			;
		if (out->len > 0)
			buf_appendc(out, '.');
		buf_append(out, p, (size_t)(end - p));
		end = p > key ? p - 1 : key;
	}
}

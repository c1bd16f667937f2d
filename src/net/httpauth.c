/* WWW-Authenticate challenges and Authorization answers (httpauth.h). */
#include <build-config.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/buf.h"
#include "net/httpauth.h"

static int httpauth_tchar(int c)
{
	return isalnum(c) || (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

static const char *httpauth_ows(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* A token at p: its length (0 if none). */
static size_t httpauth_token(const char *p)
{
	size_t n = 0;

	while (httpauth_tchar((unsigned char)p[n]))
		n++;
	return n;
}

/* One auth-param value at *p, a token or a quoted-string, into out
 * (at most cap - 1 bytes kept); -1 on a bad quoted-string. */
static int httpauth_value(const char **p, char *out, size_t cap)
{
	const char *s = *p;
	size_t n = 0;

	if (*s == '"') {
		for (s++; *s != '"'; s++) {
			if (*s == '\0')
				return -1;
			if (*s == '\\' && s[1] != '\0')
				s++;
			if (n + 1 < cap)
				out[n++] = *s;
		}
		s++;
	} else {
		/* token68 characters too: some servers leave '/' and '='
		 * unquoted in a nonce. */
		while (httpauth_tchar((unsigned char)*s) || *s == '/' || *s == '=') {
			if (n + 1 < cap)
				out[n++] = *s;
			s++;
		}
	}
	out[n] = '\0';
	*p = s;
	return 0;
}

static void httpauth_copy(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);

	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Whether a comma-separated list (a qop value) holds word. */
static int httpauth_list_has(const char *list, const char *word)
{
	size_t wl = strlen(word);

	while (*list != '\0') {
		size_t n;
		list = httpauth_ows(list);
		n = strcspn(list, ", \t");
		if (n == wl && strncasecmp(list, word, n) == 0)
			return 1;
		list += n;
		list += strspn(list, ", \t");
	}
	return 0;
}

int httpauth_parse(const char *value, struct httpauth_challenge *best)
{
	const char *p = httpauth_ows(value);

	while (*p != '\0') {
		struct httpauth_challenge ch;
		char algorithm[64] = "", qop[128] = "", name[64];
		size_t n = httpauth_token(p);
		int basic, digest;

		if (n == 0) {
			if (*p == ',') {
				p = httpauth_ows(p + 1);
				continue;
			}
			return -1;
		}
		memset(&ch, 0, sizeof ch);
		basic = n == 5 && strncasecmp(p, "Basic", 5) == 0;
		digest = n == 6 && strncasecmp(p, "Digest", 6) == 0;
		p = httpauth_ows(p + n);
		/* The parameters: name=value pairs until a token that is not
		 * followed by '=' starts the next challenge. */
		for (;;) {
			const char *q;
			char val[256];

			p = httpauth_ows(p);
			while (*p == ',')
				p = httpauth_ows(p + 1);
			n = httpauth_token(p);
			if (n == 0)
				break;
			q = httpauth_ows(p + n);
			if (*q != '=') {
				/* A token68 (no '=' after it, or '=' padding)
				 * or the next challenge's scheme. */
				break;
			}
			if (n >= sizeof name)
				n = sizeof name - 1;
			memcpy(name, p, n);
			name[n] = '\0';
			q = httpauth_ows(q + 1);
			if (httpauth_value(&q, val, sizeof val) < 0)
				return -1;
			p = q;
			if (strcasecmp(name, "realm") == 0)
				memcpy(ch.realm, val, sizeof ch.realm);
			else if (strcasecmp(name, "nonce") == 0)
				memcpy(ch.nonce, val, sizeof ch.nonce);
			else if (strcasecmp(name, "opaque") == 0)
				memcpy(ch.opaque, val, sizeof ch.opaque);
			else if (strcasecmp(name, "algorithm") == 0)
				httpauth_copy(algorithm, sizeof algorithm, val);
			else if (strcasecmp(name, "qop") == 0)
				httpauth_copy(qop, sizeof qop, val);
			else if (strcasecmp(name, "userhash") == 0)
				ch.userhash = strcasecmp(val, "true") == 0;
		}
		if (basic) {
			ch.scheme = HTTPAUTH_BASIC;
		} else if (digest && ch.nonce[0] != '\0' && httpauth_list_has(qop, "auth") &&
		    !ch.userhash) {
			ch.qop_auth = 1;
			if (algorithm[0] == '\0' || strcasecmp(algorithm, "MD5") == 0)
				ch.scheme = HTTPAUTH_DIGEST_MD5;
			else if (strcasecmp(algorithm, "SHA-256") == 0)
				ch.scheme = HTTPAUTH_DIGEST_SHA256;
		}
		if (ch.scheme > best->scheme)
			*best = ch;
	}
	return 0;
}

static void httpauth_base64(const unsigned char *in, size_t n, struct buf *out)
{
	static const char b64[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)in[i] << 16;
		if (i + 1 < n)
			v |= (unsigned)in[i + 1] << 8;
		if (i + 2 < n)
			v |= in[i + 2];
		buf_appendc(out, b64[(v >> 18) & 63]);
		buf_appendc(out, b64[(v >> 12) & 63]);
		buf_appendc(out, i + 1 < n ? b64[(v >> 6) & 63] : '=');
		buf_appendc(out, i + 2 < n ? b64[v & 63] : '=');
	}
}

/* A quoted-string's content: '"' and '\' escaped. */
static void httpauth_quoted(struct buf *out, const char *s)
{
	buf_appendc(out, '"');
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			buf_appendc(out, '\\');
		buf_appendc(out, *s);
	}
	buf_appendc(out, '"');
}

void httpauth_answer(const struct httpauth_challenge *ch, const char *user, const char *password,
    const char *uri, const char *cnonce, httpauth_hash_fn hash, struct buf *out)
{
	struct buf t = BUF_INIT;
	char ha1[65], ha2[65], resp[65];
	int sha = ch->scheme == HTTPAUTH_DIGEST_SHA256;

	if (ch->scheme == HTTPAUTH_BASIC) {
		buf_appendf(&t, "%s:%s", user, password);
		buf_appends(out, "Basic ");
		httpauth_base64((const unsigned char *)t.data, t.len, out);
		memset(t.data, 0, t.len);
		buf_free(&t);
		return;
	}
	/* RFC 7616 3.4.1, qop=auth: response = H(H(A1):nonce:nc:cnonce:auth:H(A2)). */
	buf_appendf(&t, "%s:%s:%s", user, ch->realm, password);
	hash(sha, t.data, t.len, ha1);
	memset(t.data, 0, t.len);
	buf_reset(&t);
	buf_appendf(&t, "GET:%s", uri);
	hash(sha, t.data, t.len, ha2);
	buf_reset(&t);
	buf_appendf(&t, "%s:%s:00000001:%s:auth:%s", ha1, ch->nonce, cnonce, ha2);
	hash(sha, t.data, t.len, resp);
	buf_free(&t);
	memset(ha1, 0, sizeof ha1);
	buf_appends(out, "Digest username=");
	httpauth_quoted(out, user);
	buf_appends(out, ", realm=");
	httpauth_quoted(out, ch->realm);
	buf_appends(out, ", uri=");
	httpauth_quoted(out, uri);
	buf_appends(out, sha ? ", algorithm=SHA-256" : ", algorithm=MD5");
	buf_appends(out, ", nonce=");
	httpauth_quoted(out, ch->nonce);
	buf_appends(out, ", nc=00000001, cnonce=");
	httpauth_quoted(out, cnonce);
	buf_appends(out, ", qop=auth, response=");
	httpauth_quoted(out, resp);
	if (ch->opaque[0] != '\0') {
		buf_appends(out, ", opaque=");
		httpauth_quoted(out, ch->opaque);
	}
}

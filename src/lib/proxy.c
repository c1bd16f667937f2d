/* Proxy URLs and no_proxy lists (proxy.h). */
#include <build-config.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/proxy.h"
#include "lib/xmalloc.h"

void proxy_clear(struct proxy *p)
{
	free(p->user);
	free(p->password);
	memset(p, 0, sizeof *p);
}

static int proxy_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Userinfo as RFC 3986 writes it, percent-decoded; NULL if a %XX is bad
 * or decodes to a NUL. */
static char *proxy_decode(const char *s, size_t n)
{
	char *out = xmalloc(n + 1), *o = out;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '%') {
			if (i + 2 >= n || proxy_hexval((unsigned char)s[i + 1]) < 0 ||
			    proxy_hexval((unsigned char)s[i + 2]) < 0) {
				free(out);
				return NULL;
			}
			*o = (char)(proxy_hexval((unsigned char)s[i + 1]) * 16 +
			    proxy_hexval((unsigned char)s[i + 2]));
			if (*o == '\0') {
				free(out);
				return NULL;
			}
			o++;
			i += 2;
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return out;
}

int proxy_parse(const char *url, int allow_userinfo, struct proxy *p, const char **why)
{
	const char *s = url, *at, *end, *h, *he, *port = NULL;
	size_t hl;

	memset(p, 0, sizeof *p);
	if (strncasecmp(s, "http://", 7) == 0) {
		s += 7;
	} else if (strstr(s, "://") != NULL) {
		*why =
		    "expected an http:// proxy URL (https:// and SOCKS proxies are not supported)";
		return -1;
	}
	end = s + strcspn(s, "/?#");
	if (*end != '\0' && strcmp(end, "/") != 0) {
		*why = "expected http://host:port with no path";
		return -1;
	}
	at = memchr(s, '@', (size_t)(end - s));
	if (at != NULL) {
		const char *colon = memchr(s, ':', (size_t)(at - s));
		if (!allow_userinfo) {
			*why = "a proxy's user and password go in fetch.credentials-file, not here";
			return -1;
		}
		p->user = proxy_decode(s, (size_t)((colon ? colon : at) - s));
		p->password =
		    colon ? proxy_decode(colon + 1, (size_t)(at - colon - 1)) : xstrdup("");
		if (p->user == NULL || p->password == NULL || p->user[0] == '\0' ||
		    strchr(p->user, ':') != NULL) {
			proxy_clear(p);
			*why = "bad user or password in the proxy URL";
			return -1;
		}
		s = at + 1;
	}
	if (*s == '[') {
		h = s + 1;
		he = memchr(h, ']', (size_t)(end - h));
		if (he == NULL) {
			proxy_clear(p);
			*why = "unclosed [ in the proxy's address";
			return -1;
		}
		if (he + 1 < end) {
			if (he[1] != ':') {
				proxy_clear(p);
				*why = "expected :port after the proxy's [address]";
				return -1;
			}
			port = he + 2;
		}
	} else {
		h = s;
		he = memchr(s, ':', (size_t)(end - s));
		if (he != NULL)
			port = he + 1;
		else
			he = end;
	}
	hl = (size_t)(he - h);
	if (hl == 0 || hl >= sizeof p->host) {
		proxy_clear(p);
		*why = "expected the proxy's host";
		return -1;
	}
	for (size_t i = 0; i < hl; i++) {
		unsigned char c = (unsigned char)h[i];
		if (!(isalnum(c) || c == '-' || c == '.' || c == '_' || (*s == '[' && c == ':'))) {
			proxy_clear(p);
			*why = "bad character in the proxy's host";
			return -1;
		}
		p->host[i] = (char)tolower(c);
	}
	p->host[hl] = '\0';
	p->port = 1080;
	if (port != NULL) {
		long v = 0;
		if (port == end) {
			proxy_clear(p);
			*why = "expected the proxy's port after ':'";
			return -1;
		}
		for (const char *q = port; q < end; q++) {
			if (!isdigit((unsigned char)*q) || (v = v * 10 + (*q - '0')) > 65535) {
				proxy_clear(p);
				*why = "expected a port from 1 to 65535";
				return -1;
			}
		}
		if (v == 0) {
			proxy_clear(p);
			*why = "expected a port from 1 to 65535";
			return -1;
		}
		p->port = (int)v;
	}
	if (strchr(p->host, ':') != NULL)
		snprintf(p->hostport, sizeof p->hostport, "[%s]:%d", p->host, p->port);
	else
		snprintf(p->hostport, sizeof p->hostport, "%s:%d", p->host, p->port);
	return 0;
}

int proxy_check_setting(const char *value, const char **why)
{
	struct proxy p;

	if (*value == '\0' || strcmp(value, "none") == 0)
		return 0;
	if (proxy_parse(value, 0, &p, why) < 0)
		return -1;
	proxy_clear(&p);
	return 0;
}

int proxy_bypass(const char *no_proxy, const char *host)
{
	size_t hl = strlen(host);
	const char *p = no_proxy;

	while (*p != '\0') {
		size_t n = strcspn(p, ", \t");
		const char *e = p;
		size_t en = n;

		if (en == 1 && *e == '*')
			return 1;
		if (en > 0 && *e == '.') {
			e++;
			en--;
		}
		/* "[::1]" as some write an IPv6 address. */
		if (en >= 2 && e[0] == '[' && e[en - 1] == ']') {
			e++;
			en -= 2;
		}
		if (en > 0 && en <= hl && strncasecmp(host + hl - en, e, en) == 0 &&
		    (en == hl || host[hl - en - 1] == '.'))
			return 1;
		p += n;
		p += strspn(p, ", \t");
	}
	return 0;
}

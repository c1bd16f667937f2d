/* Request headers from the configuration (reqheaders.h). */
#include <build-config.h>

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "lib/buf.h"
#include "lib/reqheaders.h"

/* Names an operator may not set: the ones that frame the message or the
 * connection (a wrong one breaks the exchange, or smuggles a second
 * request), and the ones tern sends from a setting of their own, named
 * in the message so that the right setting is used. */
static const struct {
	const char *name;
	const char *why;
} reqheaders_refused[] = {
    {"host", "Host cannot be set: it is the URI's"},
    {"content-length", "Content-Length cannot be set: it frames the message"},
    {"transfer-encoding", "Transfer-Encoding cannot be set: it frames the message"},
    {"connection", "Connection cannot be set: it is tern's to manage"},
    {"keep-alive", "Keep-Alive cannot be set: it is tern's to manage"},
    {"upgrade", "Upgrade cannot be set: it would change the protocol"},
    {"te", "TE cannot be set: it frames the message"},
    {"trailer", "Trailer cannot be set: it frames the message"},
    {"expect", "Expect cannot be set: tern sends no body"},
    {"proxy-connection", "Proxy-Connection cannot be set: it is tern's to manage"},
    {"proxy-authorization", "Proxy-Authorization cannot be set: use fetch.credentials-file"},
    {"authorization", "Authorization cannot be set: use fetch.credentials-file"},
    {"user-agent", "User-Agent is crawl.user-agent"},
    {"from", "From is fetch.from"},
    {"accept-language", "Accept-Language is fetch.accept-language"},
    {"accept-encoding", "Accept-Encoding is fetch.accept-encoding"},
    {"if-none-match", "If-None-Match is sent by revisits (revisit.conditional-requests)"},
    {"if-modified-since", "If-Modified-Since is sent by revisits (revisit.conditional-requests)"},
};

/* RFC 9110 5.6.2: a token's characters. */
static int reqheaders_tchar(int c)
{
	return isalnum(c) || (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

int reqheaders_check_value(const char *value, const char **why)
{
	for (const unsigned char *p = (const unsigned char *)value; *p != '\0'; p++)
		if ((*p < 0x20 && *p != '\t') || *p == 0x7f) {
			*why = "a header value cannot hold control characters (CR, LF...)";
			return -1;
		}
	return 0;
}

int reqheaders_check_agent(const char *value, const char **why)
{
	if (reqheaders_check_value(value, why) < 0)
		return -1;
	if (strstr(value, "+http://") == NULL && strstr(value, "+https://") == NULL) {
		*why = "expected the operator's contact URL in it, as in "
		       "mycrawler/1.0 (+https://example.org/crawler)";
		return -1;
	}
	return 0;
}

int reqheaders_check_from(const char *value, const char **why)
{
	const char *at = strchr(value, '@');

	if (reqheaders_check_value(value, why) < 0)
		return -1;
	if (*value == '\0')
		return 0;
	if (at == NULL || at == value || at[1] == '\0' || strchr(value, ' ') != NULL) {
		*why = "expected the operator's e-mail address (name@example.org)";
		return -1;
	}
	return 0;
}

int reqheaders_check_extra(const char *text, const char **why)
{
	const char *p = text;

	if (reqheaders_check_value(text, why) < 0)
		return -1;
	while (*p != '\0') {
		size_t len = strcspn(p, "|"), n = 0;
		const char *q = p, *e = p + len;

		while (q < e && (*q == ' ' || *q == '\t'))
			q++;
		if (q == e) {
			*why = "an empty item: expected \"Name: value | Name: value\"";
			return -1;
		}
		while (q + n < e && reqheaders_tchar((unsigned char)q[n]))
			n++;
		if (n == 0 || q + n == e || q[n] != ':') {
			*why = "expected \"Name: value\" items separated by '|', each name a token";
			return -1;
		}
		for (size_t i = 0; i < sizeof reqheaders_refused / sizeof reqheaders_refused[0];
		     i++)
			if (strlen(reqheaders_refused[i].name) == n &&
			    strncasecmp(q, reqheaders_refused[i].name, n) == 0) {
				*why = reqheaders_refused[i].why;
				return -1;
			}
		p = *e == '|' ? e + 1 : e;
	}
	return 0;
}

/* One line: the name, then the value with its outer blanks trimmed. */
static void reqheaders_line(
    struct buf *out, const char *name, size_t nlen, const char *value, size_t len)
{
	while (nlen > 0 && (*name == ' ' || *name == '\t')) {
		name++;
		nlen--;
	}
	while (len > 0 && (*value == ' ' || *value == '\t')) {
		value++;
		len--;
	}
	while (len > 0 && (value[len - 1] == ' ' || value[len - 1] == '\t'))
		len--;
	buf_append(out, name, nlen);
	buf_append(out, ": ", 2);
	buf_append(out, value, len);
	buf_append(out, "\r\n", 2);
}

void reqheaders_build(const char *lang, const char *from, const char *p, struct buf *out)
{
	if (*lang != '\0')
		reqheaders_line(out, "Accept-Language", 15, lang, strlen(lang));
	if (*from != '\0')
		reqheaders_line(out, "From", 4, from, strlen(from));
	/* Checked when the configuration was read (config.c): every item
	 * has its colon. */
	while (*p != '\0') {
		size_t len = strcspn(p, "|");
		const char *colon = memchr(p, ':', len);

		if (colon != NULL)
			reqheaders_line(
			    out, p, (size_t)(colon - p), colon + 1, len - (size_t)(colon + 1 - p));
		p += len;
		if (*p == '|')
			p++;
	}
}

/* Removes the header lines of head named name (n bytes), the request
 * line aside. */
static void reqheaders_remove(struct buf *head, const char *name, size_t n)
{
	size_t at = 0;

	while (at < head->len) {
		const char *line = head->data + at;
		const char *eol = memchr(line, '\n', head->len - at);
		size_t len = eol != NULL ? (size_t)(eol - line) + 1 : head->len - at;

		if (at > 0 && len > n && line[n] == ':' && strncasecmp(line, name, n) == 0) {
			memmove(head->data + at, head->data + at + len, head->len - at - len);
			head->len -= len;
			head->data[head->len] = '\0';
			continue;
		}
		at += len;
	}
}

void reqheaders_insert(struct buf *head, const char *lines, size_t len)
{
	size_t at;

	if (len == 0)
		return;
	/* A header given here replaces one of the same name the head holds
	 * (tern's Accept): two would be merged into a list by the server. */
	for (const char *p = lines, *e = lines + len; p < e;) {
		const char *colon = memchr(p, ':', (size_t)(e - p));
		const char *eol = memchr(p, '\n', (size_t)(e - p));

		if (colon != NULL && (eol == NULL || colon < eol))
			reqheaders_remove(head, p, (size_t)(colon - p));
		p = eol != NULL ? eol + 1 : e;
	}
	/* The head ends "\r\n\r\n": the lines go before the last CRLF. */
	at = head->len >= 2 ? head->len - 2 : head->len;
	buf_append(head, lines, len);
	memmove(head->data + at + len, head->data + at, head->len - len - at);
	memcpy(head->data + at, lines, len);
}

/* HTTP logins (login.h). */
#include <build-config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "crawl/login.h"
#include "lib/buf.h"
#include "lib/xmalloc.h"
#include "net/credentials.h"
#include "net/fetch.h"
#include "net/httpauth.h"

/* Servers that accepted Basic credentials are few (one a credential in
 * practice): a list is enough, and bounded. */
#define LOGIN_MAX_AHEAD 1024

struct login_ahead {
	char *server_key;
	const struct credential *cr;
	char *value; /* "Basic ..." */
	struct login_ahead *next;
};

struct login {
	const struct credentials *creds;
	struct login_ahead *ahead;
	size_t nahead;
};

struct login *login_new(const struct credentials *creds)
{
	struct login *l = xcalloc(1, sizeof *l);

	l->creds = creds;
	return l;
}

static void login_ahead_free(struct login_ahead *a)
{
	free(a->server_key);
	OPENSSL_cleanse(a->value, strlen(a->value));
	free(a->value);
	free(a);
}

void login_free(struct login *l)
{
	if (l == NULL)
		return;
	while (l->ahead != NULL) {
		struct login_ahead *a = l->ahead;
		l->ahead = a->next;
		login_ahead_free(a);
	}
	free(l);
}

static void login_hash(int sha256, const char *in, size_t len, char *hex)
{
	unsigned char d[EVP_MAX_MD_SIZE];
	unsigned n = 0;

	EVP_Digest(in, len, d, &n, sha256 ? EVP_sha256() : EVP_md5(), NULL);
	for (unsigned i = 0; i < n; i++) {
		hex[2 * i] = "0123456789abcdef"[d[i] >> 4];
		hex[2 * i + 1] = "0123456789abcdef"[d[i] & 15];
	}
	hex[2 * n] = '\0';
}

char *login_answer(
    struct login *l, struct fetch *f, const char *server_key, const char *surt, const char *target)
{
	struct httpauth_challenge ch;
	const struct credential *cr;
	const char *name, *value;
	struct buf out = BUF_INIT;
	unsigned char rnd[16];
	char cnonce[33];

	if (l->creds == NULL)
		return NULL;
	memset(&ch, 0, sizeof ch);
	for (size_t i = 0; fetch_header_at(f, i, &name, &value); i++)
		if (strcasecmp(name, "WWW-Authenticate") == 0)
			httpauth_parse(value, &ch);
	if (ch.scheme == HTTPAUTH_NONE || (cr = credentials_http(l->creds, surt, ch.realm)) == NULL)
		return NULL;
	if (RAND_bytes(rnd, sizeof rnd) != 1)
		return NULL;
	for (size_t i = 0; i < sizeof rnd; i++) {
		cnonce[2 * i] = "0123456789abcdef"[rnd[i] >> 4];
		cnonce[2 * i + 1] = "0123456789abcdef"[rnd[i] & 15];
	}
	cnonce[32] = '\0';
	httpauth_answer(&ch, cr->user, cr->password, target, cnonce, login_hash, &out);
	if (ch.scheme == HTTPAUTH_BASIC && l->nahead < LOGIN_MAX_AHEAD &&
	    login_ahead(l, server_key, surt) == NULL) {
		struct login_ahead *a = xcalloc(1, sizeof *a);
		a->server_key = xstrdup(server_key);
		a->cr = cr;
		a->value = xstrdup(out.data);
		a->next = l->ahead;
		l->ahead = a;
		l->nahead++;
	}
	return buf_steal(&out);
}

const char *login_ahead(const struct login *l, const char *server_key, const char *surt)
{
	for (const struct login_ahead *a = l->ahead; a != NULL; a = a->next)
		if (strcmp(a->server_key, server_key) == 0 &&
		    strncmp(surt, a->cr->where, strlen(a->cr->where)) == 0)
			return a->value;
	return NULL;
}

void login_refused(struct login *l, const char *server_key, const char *authorization)
{
	for (struct login_ahead **pp = &l->ahead; *pp != NULL; pp = &(*pp)->next) {
		struct login_ahead *a = *pp;
		if (strcmp(a->server_key, server_key) == 0 &&
		    strcmp(a->value, authorization) == 0) {
			*pp = a->next;
			login_ahead_free(a);
			l->nahead--;
			return;
		}
	}
}

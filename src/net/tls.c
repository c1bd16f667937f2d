/* TLS over memory BIOs (struct tls_ctx, struct tls).
 *
 * Memory: SSL_MODE_RELEASE_BUFFERS lets OpenSSL free its 16 KiB record
 * buffers while a connection is quiet, and ciphertext is pushed in at most
 * TLS_PUSH_MAX bytes at a time so that the input memory BIO stays small. */
#include <build-config.h>

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "net/tls.h"
#include "lib/xmalloc.h"

#define TLS_PUSH_MAX 4096

struct tls_ctx {
	SSL_CTX *ctx;
	int verify;
};

struct tls {
	SSL *ssl;
	BIO *rbio; /* network -> SSL */
	BIO *wbio; /* SSL -> network */
	char *err;
	enum status_cause cause; /* why, by name (set with err) */
};

struct tls_ctx *tls_ctx_new(int verify, const char *ca_file, char **err)
{
	struct tls_ctx *c;
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());

	if (ctx == NULL) {
		*err = xstrdup("SSL_CTX_new failed");
		return NULL;
	}
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
	/* We keep sessions per host ourselves (the fetcher's site table). */
	SSL_CTX_set_session_cache_mode(
	    ctx, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
	if (verify) {
		int ok = ca_file && *ca_file ? SSL_CTX_load_verify_locations(ctx, ca_file, NULL)
					     : SSL_CTX_set_default_verify_paths(ctx);
		if (ok != 1) {
			/* A missing file is a system error, which has no
			 * reason string of OpenSSL's own. */
			unsigned long e = ERR_get_error();
			const char *why = ERR_reason_error_string(e);
			if (why == NULL && ERR_SYSTEM_ERROR(e))
				why = strerror(ERR_GET_REASON(e));
			*err = xasprintf("cannot load CA certificates from %s: %s",
			    ca_file && *ca_file ? ca_file : "the system store",
			    why != NULL ? why : "no certificate found");
			ERR_clear_error();
			SSL_CTX_free(ctx);
			return NULL;
		}
		SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
	} else {
		SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
	}
	c = xcalloc(1, sizeof(*c));
	c->ctx = ctx;
	c->verify = verify;
	return c;
}

void tls_ctx_free(struct tls_ctx *c)
{
	if (c == NULL)
		return;
	SSL_CTX_free(c->ctx);
	free(c);
}

void tls_ctx_offer_h2(struct tls_ctx *c)
{
	/* ALPN's wire form: each name after its length byte. */
	static const unsigned char protos[] = "\x02h2\x08http/1.1";

	if (SSL_CTX_set_alpn_protos(c->ctx, protos, sizeof protos - 1) != 0)
		abort(); /* only fails on allocation */
}

struct tls *tls_new(struct tls_ctx *c, const char *host, void *session)
{
	struct tls *t = xcalloc(1, sizeof(*t));
	unsigned char ipbuf[16];
	int is_ip = inet_pton(AF_INET, host, ipbuf) == 1 || inet_pton(AF_INET6, host, ipbuf) == 1;

	t->ssl = SSL_new(c->ctx);
	if (t->ssl == NULL)
		abort(); /* only fails on allocation */
	t->rbio = BIO_new(BIO_s_mem());
	t->wbio = BIO_new(BIO_s_mem());
	if (t->rbio == NULL || t->wbio == NULL)
		abort();
	/* An empty memory BIO says "retry" rather than EOF. */
	BIO_set_mem_eof_return(t->rbio, -1);
	SSL_set_bio(t->ssl, t->rbio, t->wbio);
	SSL_set_connect_state(t->ssl);
	if (is_ip) {
		if (c->verify)
			X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(t->ssl), host);
	} else {
		SSL_set_tlsext_host_name(t->ssl, host);
		if (c->verify) {
			SSL_set_hostflags(t->ssl, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
			SSL_set1_host(t->ssl, host);
		}
	}
	if (session)
		SSL_set_session(t->ssl, session);
	return t;
}

void tls_free(struct tls *t)
{
	if (t == NULL)
		return;
	/* We close without close_notify; unless told the shutdown was clean,
	 * SSL_free marks the session not resumable, and the next connection
	 * to the host would pay a full handshake. A failed connection keeps
	 * that treatment. */
	if (t->err == NULL && SSL_is_init_finished(t->ssl))
		SSL_set_shutdown(t->ssl, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
	SSL_free(t->ssl); /* frees both BIOs */
	free(t->err);
	free(t);
}

/* The named cause of a verification result: the few a person can act on
 * differently, the rest as a plain verify failure. */
static enum status_cause tls_verify_cause(long vr)
{
	switch (vr) {
	case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
	case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
		return CAUSE_TLS_SELF_SIGNED;
	case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
	case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
	case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
		return CAUSE_TLS_UNKNOWN_ISSUER;
	case X509_V_ERR_CERT_HAS_EXPIRED:
		return CAUSE_TLS_EXPIRED;
	case X509_V_ERR_CERT_NOT_YET_VALID:
		return CAUSE_TLS_NOT_YET_VALID;
	case X509_V_ERR_HOSTNAME_MISMATCH:
	case X509_V_ERR_IP_ADDRESS_MISMATCH:
		return CAUSE_TLS_NAME_MISMATCH;
	default:
		return CAUSE_TLS_VERIFY;
	}
}

/* Records why an operation failed: the verification result if the chain
 * or name was refused, else OpenSSL's error queue. */
static void tls_set_error(struct tls *t, int sslerr)
{
	long vr = SSL_get_verify_result(t->ssl);
	unsigned long e = ERR_peek_error();

	if (t->err)
		return;
	t->cause = vr != X509_V_OK ? tls_verify_cause(vr) : CAUSE_TLS_HANDSHAKE;
	if (vr != X509_V_OK)
		t->err =
		    xasprintf("certificate verify failed: %s", X509_verify_cert_error_string(vr));
	else if (e)
		t->err = xasprintf("TLS error: %s", ERR_reason_error_string(e));
	else if (sslerr == SSL_ERROR_ZERO_RETURN)
		t->err = xstrdup("TLS connection closed by peer");
	else
		t->err = xasprintf("TLS error (SSL_get_error %d)", sslerr);
	ERR_clear_error();
}

enum tls_result tls_handshake(struct tls *t)
{
	int r = SSL_do_handshake(t->ssl), e;

	if (r == 1) {
		/* SSL_MODE_RELEASE_BUFFERS frees the 16 KiB read buffer only
		 * after application data; a connection waiting for its first
		 * response byte would hold it, so let it go now. */
		SSL_free_buffers(t->ssl);
		return TLS_OK;
	}
	e = SSL_get_error(t->ssl, r);
	if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE)
		return TLS_WANT;
	tls_set_error(t, e);
	return TLS_ERROR;
}

size_t tls_push(struct tls *t, const char *data, size_t len)
{
	size_t pend = BIO_ctrl_pending(t->rbio);
	int n;

	if (pend >= TLS_PUSH_MAX)
		return 0;
	if (len > TLS_PUSH_MAX - pend)
		len = TLS_PUSH_MAX - pend;
	n = BIO_write(t->rbio, data, (int)len);
	return n > 0 ? (size_t)n : 0;
}

int tls_read(struct tls *t, char *out, size_t cap)
{
	int r = SSL_read(t->ssl, out, (int)cap), e;

	if (r > 0)
		return r;
	e = SSL_get_error(t->ssl, r);
	if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
		/* Waiting: hand the record buffers back (see tls_handshake). */
		SSL_free_buffers(t->ssl);
		return 0;
	}
	if (e == SSL_ERROR_ZERO_RETURN)
		return TLS_CLOSED;
	tls_set_error(t, e);
	return TLS_ERROR;
}

int tls_write(struct tls *t, const char *data, size_t len)
{
	while (len > 0) {
		int r = SSL_write(t->ssl, data, (int)len);
		if (r <= 0) {
			tls_set_error(t, SSL_get_error(t->ssl, r));
			return TLS_ERROR;
		}
		data += r;
		len -= r;
	}
	return 0;
}

size_t tls_pending(struct tls *t)
{
	return BIO_ctrl_pending(t->wbio);
}

size_t tls_pull(struct tls *t, char *out, size_t cap)
{
	int n = BIO_read(t->wbio, out, (int)cap);

	return n > 0 ? (size_t)n : 0;
}

int tls_resumed(const struct tls *t)
{
	return SSL_session_reused(t->ssl);
}

int tls_h2(const struct tls *t)
{
	const unsigned char *p;
	unsigned int n;

	SSL_get0_alpn_selected(t->ssl, &p, &n);
	return n == 2 && memcmp(p, "h2", 2) == 0;
}

const char *tls_version(const struct tls *t)
{
	switch (SSL_version(t->ssl)) {
	case TLS1_3_VERSION:
		return "tls/1.3";
	case TLS1_2_VERSION:
		return "tls/1.2";
	case TLS1_1_VERSION:
		return "tls/1.1";
	case TLS1_VERSION:
		return "tls/1.0";
	default:
		return NULL;
	}
}

const char *tls_cipher(const struct tls *t)
{
	const SSL_CIPHER *c = SSL_get_current_cipher(t->ssl);
	const char *name = c != NULL ? SSL_CIPHER_standard_name(c) : NULL;

	/* OpenSSL names a suite it has no RFC name for "(NONE)". */
	return name != NULL && name[0] != '(' ? name : NULL;
}

void *tls_session(struct tls *t)
{
	SSL_SESSION *s = SSL_get1_session(t->ssl);

	if (s && !SSL_SESSION_is_resumable(s)) {
		SSL_SESSION_free(s);
		return NULL;
	}
	return s;
}

void tls_session_free(void *s)
{
	SSL_SESSION_free(s);
}

const char *tls_error(const struct tls *t)
{
	return t->err ? t->err : "TLS error";
}

enum status_cause tls_cause(const struct tls *t)
{
	return t->err ? t->cause : CAUSE_TLS_HANDSHAKE;
}

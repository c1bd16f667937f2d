/* TLS and credentials for the NATS connection (private.h, doc/cluster.md):
 * the servers of cluster.url, a CA, a client certificate, a user and
 * password, a token, an nkey seed or a .creds file; and the message that
 * says why a connection was refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/ssl.h>

#include "cluster/private.h"
#include "cluster/nkey.h"
#include "lib/urlcreds.h"
#include "lib/xmalloc.h"

/* cluster.url may name several servers of a NATS cluster, comma-separated:
 * the client connects to any and fails over to the others. */
natsStatus natsauth_set_servers(natsOptions *opts, const char *url)
{
	char *copy = xstrdup(url), *p, *save = NULL;
	const char **list = NULL;
	int n = 0;
	natsStatus s;

	for (p = strtok_r(copy, ", ", &save); p != NULL; p = strtok_r(NULL, ", ", &save)) {
		list = xrealloc(list, (size_t)(n + 1) * sizeof *list);
		list[n++] = p;
	}
	s = n > 0 ? natsOptions_SetServers(opts, list, n) : NATS_INVALID_ARG;
	free(list);
	free(copy);
	return s;
}

/* TLS and credentials (natsio_auth) on n->opts: NATS_OK, or an error and
 * *err naming the setting whose file could not be used. */
natsStatus natsauth_set(struct natsio *n, const struct natsio_auth *a, char **err)
{
	natsStatus s = NATS_OK;
	const char *what = NULL;

#define NATSIO_SET(key, call)         \
	do {                          \
		if (s == NATS_OK) {   \
			what = (key); \
			s = (call);   \
		}                     \
	} while (0)
	if (strstr(n->o.url, "tls://") != NULL)
		n->tls = 1;
	if (a == NULL)
		return NATS_OK;
	if ((a->tls_ca != NULL && a->tls_ca[0] != '\0') ||
	    (a->tls_cert != NULL && a->tls_cert[0] != '\0') ||
	    (a->tls_key != NULL && a->tls_key[0] != '\0'))
		n->tls = 1;
	if (a->tls_ca != NULL && a->tls_ca[0] != '\0') {
		NATSIO_SET("cluster.tls-ca-file", natsOptions_SetSecure(n->opts, true));
		NATSIO_SET("cluster.tls-ca-file",
		    natsOptions_LoadCATrustedCertificates(n->opts, a->tls_ca));
	}
	if ((a->tls_cert != NULL && a->tls_cert[0] != '\0') ||
	    (a->tls_key != NULL && a->tls_key[0] != '\0')) {
		if (a->tls_cert == NULL || a->tls_cert[0] == '\0' || a->tls_key == NULL ||
		    a->tls_key[0] == '\0') {
			*err = xstrdup("cluster.tls-cert-file and cluster.tls-key-file go together "
				       "(a client certificate and its key)");
			return NATS_INVALID_ARG;
		}
		NATSIO_SET("cluster.tls-cert-file", natsOptions_SetSecure(n->opts, true));
		NATSIO_SET("cluster.tls-cert-file",
		    natsOptions_LoadCertificatesChain(n->opts, a->tls_cert, a->tls_key));
	}
	if (a->tls_hostname != NULL && a->tls_hostname[0] != '\0')
		NATSIO_SET("cluster.tls-hostname",
		    natsOptions_SetExpectedHostname(n->opts, a->tls_hostname));
	if (a->creds != NULL && a->creds[0] != '\0') {
		FILE *fp = fopen(a->creds, "r");
		if (fp == NULL) {
			*err = xasprintf("cluster.creds-file: %s: %s", a->creds, strerror(errno));
			return NATS_INVALID_ARG;
		}
		fclose(fp);
		NATSIO_SET("cluster.creds-file",
		    natsOptions_SetUserCredentialsFromFiles(n->opts, a->creds, NULL));
	}
	if (a->nkey != NULL && a->nkey[0] != '\0') {
		/* nats.c reads the seed again at each connection, but wants the
		 * public key too: derived once here from the seed. */
		char seed[256], pub[64], *e = NULL;
		size_t len = 0;
		FILE *fp = fopen(a->nkey, "r");
		if (fp != NULL) {
			len = fread(seed, 1, sizeof seed - 1, fp);
			fclose(fp);
		}
		seed[len] = '\0';
		if (fp == NULL) {
			*err = xasprintf("cluster.nkey-file: %s: %s", a->nkey, strerror(errno));
			return NATS_INVALID_ARG;
		}
		if (nkey_public(seed, pub, sizeof pub, &e) < 0) {
			*err = xasprintf("cluster.nkey-file: %s: %s", a->nkey, e);
			free(e);
			memset(seed, 0, sizeof seed);
			return NATS_INVALID_ARG;
		}
		memset(seed, 0, sizeof seed);
		NATSIO_SET("cluster.nkey-file", natsOptions_SetNKeyFromSeed(n->opts, pub, a->nkey));
	}
#undef NATSIO_SET
	if (s != NATS_OK) {
		const char *last = nats_GetLastError(NULL);
		*err = xasprintf(
		    "%s: %s", what, last != NULL && last[0] != '\0' ? last : natsStatus_GetText(s));
	}
	return s;
}

/* Why a connection was refused, for the person who reads it: nats.c's
 * last error and what to look at. *usage is set when the refusal is the
 * configuration's (credentials, TLS), not the network's. */
char *natsauth_connect_error(const struct natsio *n, natsStatus s, int *usage)
{
	const char *last = nats_GetLastError(NULL), *hint = "";

	switch (s) {
	case NATS_SECURE_CONNECTION_REQUIRED:
		hint = " (the server requires TLS: set cluster.tls-ca-file to the CA that signed "
		       "its certificate, or use a tls:// URL)";
		*usage = 1;
		break;
	case NATS_SECURE_CONNECTION_WANTED:
		hint = " (TLS is set here but the server does not offer it)";
		*usage = 1;
		break;
	case NATS_SSL_ERROR:
		if (!n->tls) {
			hint = " (the server requires TLS: set cluster.tls-ca-file to the CA "
			       "that signed its certificate)";
			*usage = 1;
			break;
		}
		hint = " (TLS failed: is the server's certificate signed by the CA of "
		       "cluster.tls-ca-file, and does it name the host of the URL or "
		       "cluster.tls-hostname?)";
		*usage = 1;
		break;
	case NATS_CONNECTION_AUTH_FAILED:
	case NATS_NOT_PERMITTED:
		hint = " (the server refused this node's credentials: the user and password "
		       "or token in cluster.url, cluster.nkey-file or cluster.creds-file)";
		*usage = 1;
		break;
	default:
		break;
	}
	/* nats.c's detail may quote the server, never the URL's secrets. */
	if (last != NULL && last[0] != '\0' && strcmp(last, natsStatus_GetText(s)) != 0)
		return xasprintf("cannot reach NATS at %s: %s: %s%s", n->shown,
		    natsStatus_GetText(s), last, hint);
	return xasprintf("cannot reach NATS at %s: %s%s", n->shown, natsStatus_GetText(s), hint);
}

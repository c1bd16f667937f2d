/* A NATS user nkey (cluster.nkey-file, tern.conf(5)): nats.c signs the
 * server's nonce with the seed but wants the public key as well, which the
 * seed alone determines. No I/O (OpenSSL's Ed25519 only); table-tested. */
#ifndef TERN_NKEY_H
#define TERN_NKEY_H
#include <stddef.h>

/* The public key ("U" and 55 more characters) of the user seed text
 * ("SU" ...; surrounding blanks allowed) into pub (cap >= 57): 0, or -1 and
 * *err (allocated) when seed is not a user seed. */
int nkey_public(const char *seed, char *pub, size_t cap, char **err);

#endif

/* HTTP logins of a crawl (tern(1), LOGINS): the credentials of
 * fetch.credentials-file answered to a 401's challenge, and Basic
 * credentials sent ahead to the server that accepted them, as Heritrix's
 * credential store does. The challenge's parsing and the answer's bytes are
 * net/httpauth.c's; this file picks the credential, hashes and remembers. */
#ifndef TERN_LOGIN_H
#define TERN_LOGIN_H

struct credentials;
struct fetch;
struct login;

/* creds may be NULL (no credentials file): nothing is ever answered. */
struct login *login_new(const struct credentials *creds);
void login_free(struct login *l);

/* A 401 response f for a URI of scheme-less SURT surt on server_key
 * ("scheme://host:port"), asked with request target: the Authorization
 * value to ask again with (allocated), or NULL when no challenge tern
 * answers came, or no credential matches surt and the realm. A Basic
 * answer is remembered for the server's next requests. */
char *login_answer(
    struct login *l, struct fetch *f, const char *server_key, const char *surt, const char *target);
/* A Basic Authorization remembered for server_key whose credential covers
 * surt, sent ahead of any challenge (RFC 7617 2.2), or NULL. */
const char *login_ahead(const struct login *l, const char *server_key, const char *surt);
/* The server refused the answer (401 again): it is not sent ahead any
 * more. */
void login_refused(struct login *l, const char *server_key, const char *authorization);

#endif

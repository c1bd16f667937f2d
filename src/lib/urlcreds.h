/* Credentials in a server URL (cluster.url, tern.conf(5)): a NATS URL may
 * carry a user and password (nats://user:pass@host:4222) or a token
 * (nats://token@host:4222), and a list of them is comma-separated. What is
 * shown to a person (tern.log, reports, the console, error messages) is
 * the URL with those secrets replaced by "***". Pure. */
#ifndef TERN_URLCREDS_H
#define TERN_URLCREDS_H

/* A copy of the list urls (allocated) with each URL's password, or its
 * token (a user with no password), replaced by "***". */
char *urlcreds_hide(const char *urls);

/* 1 when some URL of the list carries a password or a token. */
int urlcreds_has_secret(const char *urls);

#endif

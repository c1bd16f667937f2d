/* The resolver (struct dns): c-ares driven by the libuv loop, a cache of
 * answers keyed by host name, and waiters coalesced on pending lookups.
 *
 * A name is looked up as the system would: the hosts file and DNS in the
 * order c-ares reads from the system's configuration ("lookup" in
 * resolv.conf, "hosts:" in nsswitch.conf, "order" in host.conf; "fb",
 * file then DNS, when none says), whatever dns.servers names. The hosts
 * file is c-ares's own lookup (ares_getaddrinfo on a channel whose only
 * lookup is the file, which honours CARES_HOSTS); DNS is ares_query, A
 * then AAAA, so that the answer's records and TTLs can be kept for the
 * WARC. localhost and *.localhost never go to DNS (RFC 6761 6.3): the
 * hosts file may name them, and otherwise they are the loopback addresses.
 *
 * Every callback is delivered from one idle handle (dns_tick_cb), never from
 * inside dns_resolve nor from inside a c-ares callback; the same tick starts
 * queued lookups as slots free up under DNS_MAX_OUTSTANDING (loopback drops
 * UDP packets past a few hundred outstanding on one socket). */
#include <build-config.h>

#include <ares.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>

#include "lib/buf.h"
#include "lib/clock.h"
#include "lib/config.h"
#include "net/dns.h"
#include "lib/xmalloc.h"

/* Entries kept before expired ones are purged. */
#define DNS_CACHE_MAX 200000
/* Callbacks delivered per loop wakeup. */
#define DNS_TICK_BUDGET 1024

enum dns_estate { DNS_E_QUEUED, DNS_E_QUERYING, DNS_E_DONE };

struct dns_entry {
	struct dns *d;
	char *host;
	struct dns_entry *hnext; /* hash chain */
	struct dns_entry *qnext; /* start queue */
	enum dns_estate state;
	int qtype;	    /* ns_t_a, then ns_t_aaaa on NODATA */
	const char *next;   /* lookups left, in dns->order */
	int dns_status;	    /* DNS's failure, when the file follows */
	const char *source; /* what answered if not DNS: the hosts
					 * file's path, or the RFC 6761 rule */
	unsigned refs;	    /* queries pointing here */
	uint64_t expires;   /* loop time, ms */
	struct dns_answer ans;
	struct sockaddr_storage *addrs; /* ans.addrs, owned */
	char *rr_text;
	char *error;
	struct dns_query *waiters;
	uint64_t deadline;		 /* loop time the lookup gives up */
	struct dns_entry *wnext, *wprev; /* on the wire, oldest first */
	int on_wire;
	int abandoned; /* answered "timeout", c-ares still busy */
};

struct dns_query {
	struct dns *d;
	struct dns_entry *e;
	dns_cb cb;
	void *arg;
	int hit;		       /* answered from the cache */
	struct dns_query *next, *prev; /* entry's waiters, or the ready list */
	int ready;
};

struct dns_sock {
	uv_poll_t poll;
	ares_socket_t fd;
	struct dns *d;
	struct dns_sock *next;
};

struct dns {
	uv_loop_t *loop;
	ares_channel ch;
	ares_channel files;   /* lookups "f": the hosts file only */
	char order[3];	      /* "fb", "bf", "f" or "b" */
	char hosts_file[256]; /* what answered a file lookup */
	uv_timer_t timer;
	uv_idle_t idle;
	struct dns_sock *socks;
	struct dns_entry **tab;
	size_t nbuckets, nentries;
	struct dns_entry *qhead, *qtail; /* lookups waiting for a slot */
	unsigned outstanding;
	struct dns_entry *whead, *wtail; /* lookups on the wire by deadline */
	uint64_t lookup_ms;		 /* dns.timeout-ms x dns.tries */
	struct dns_query *ready;	 /* answered, to deliver */
	struct dns_query *ready_tail;
	uint64_t ip_validity_ms;
	char server[64];
	int closing;
	int handles; /* open uv handles, for dns_free */
};

static void dns_tick_cb(uv_idle_t *h);
static void dns_timer_cb(uv_timer_t *t);
static void dns_poll_cb(uv_poll_t *p, int status, int events);
static void dns_close_cb(uv_handle_t *h);
static void dns_sock_close_cb(uv_handle_t *h);
static void dns_handle_gone(struct dns *d);
static void dns_expire(struct dns *d);
static void dns_wire_unlink(struct dns *d, struct dns_entry *e);
static void dns_answered(struct dns *d, struct dns_entry *e, int status);
static void dns_ready_push(struct dns *d, struct dns_query *q);
static void dns_idle_start(struct dns *d);
static void dns_ares_cb(void *arg, int status, int timeouts, unsigned char *abuf, int alen);
static void dns_step(struct dns *d, struct dns_entry *e);

static uint32_t dns_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

int dns_numeric(const char *host, struct sockaddr_storage *sa)
{
	struct in_addr a4;
	char tmp[INET6_ADDRSTRLEN + 2];
	size_t n = strlen(host);

	memset(sa, 0, sizeof(*sa));
	if (inet_aton(host, &a4) != 0) {
		struct sockaddr_in *s4 = (struct sockaddr_in *)sa;
		s4->sin_family = AF_INET;
		s4->sin_addr = a4;
		return 0;
	}
	if (n >= 2 && host[0] == '[' && host[n - 1] == ']' && n - 2 < sizeof(tmp)) {
		memcpy(tmp, host + 1, n - 2);
		tmp[n - 2] = '\0';
		host = tmp;
	}
	if (inet_pton(AF_INET6, host, &((struct sockaddr_in6 *)sa)->sin6_addr) == 1) {
		sa->ss_family = AF_INET6;
		return 0;
	}
	return -1;
}

/* Keeps c-ares' one timer armed for its next timeout. */
static void dns_timer_rearm(struct dns *d)
{
	struct timeval tv, *tvp;
	uint64_t ms = UINT64_MAX;

	if (d->closing)
		return;
	tvp = ares_timeout(d->ch, NULL, &tv);
	if (tvp)
		ms = (uint64_t)tvp->tv_sec * 1000 + (tvp->tv_usec + 999) / 1000;
	if (d->whead) {
		uint64_t now = uv_now(d->loop);
		uint64_t left = d->whead->deadline > now ? d->whead->deadline - now : 0;
		if (left < ms)
			ms = left;
	}
	if (ms == UINT64_MAX)
		uv_timer_stop(&d->timer);
	else
		uv_timer_start(&d->timer, dns_timer_cb, ms, 0);
}

static void dns_timer_cb(uv_timer_t *t)
{
	struct dns *d = t->data;

	ares_process_fd(d->ch, ARES_SOCKET_BAD, ARES_SOCKET_BAD);
	dns_expire(d);
	dns_timer_rearm(d);
}

static void dns_poll_cb(uv_poll_t *p, int status, int events)
{
	struct dns_sock *s = p->data;
	struct dns *d = s->d;
	ares_socket_t fd = s->fd;

	/* On a poll error let c-ares read the socket and see the error. */
	if (status < 0)
		events = UV_READABLE | UV_WRITABLE;
	ares_process_fd(d->ch, (events & UV_READABLE) ? fd : ARES_SOCKET_BAD,
	    (events & UV_WRITABLE) ? fd : ARES_SOCKET_BAD);
	dns_timer_rearm(d);
}

/* c-ares tells us which of its sockets to watch for what. */
static void dns_sock_state_cb(void *data, ares_socket_t fd, int readable, int writable)
{
	struct dns *d = data;
	struct dns_sock **pp, *s;

	for (pp = &d->socks; *pp && (*pp)->fd != fd; pp = &(*pp)->next)
		;
	s = *pp;
	if (readable || writable) {
		if (s == NULL) {
			s = xcalloc(1, sizeof(*s));
			s->fd = fd;
			s->d = d;
			if (uv_poll_init_socket(d->loop, &s->poll, fd) != 0) {
				free(s);
				return;
			}
			s->poll.data = s;
			s->next = d->socks;
			d->socks = s;
			d->handles++;
		}
		uv_poll_start(&s->poll, (readable ? UV_READABLE : 0) | (writable ? UV_WRITABLE : 0),
		    dns_poll_cb);
	} else if (s) {
		*pp = s->next;
		uv_poll_stop(&s->poll);
		uv_close((uv_handle_t *)&s->poll, dns_sock_close_cb);
	}
}

/* The system's lookup order, as c-ares read it into d->ch, and a second
 * channel whose only lookup is the hosts file. */
static int dns_files_init(struct dns *d, char **err)
{
	struct ares_options o;
	const char *env;
	size_t n = 0;
	int mask, r;

	memset(&o, 0, sizeof(o));
	if (ares_save_options(d->ch, &o, &mask) == ARES_SUCCESS) {
		for (const char *p = o.lookups; p && *p && n < 2; p++)
			if ((*p == 'f' || *p == 'b') && memchr(d->order, *p, n) == NULL)
				d->order[n++] = *p;
		ares_destroy_options(&o);
	}
	if (n == 0)
		d->order[n++] = 'f', d->order[n++] = 'b';
	d->order[n] = '\0';
	memset(&o, 0, sizeof(o));
	o.lookups = (char *)"f";
	o.flags = ARES_FLAG_NOSEARCH | ARES_FLAG_NOALIASES;
	r = ares_init_options(&d->files, &o, ARES_OPT_LOOKUPS | ARES_OPT_FLAGS);
	if (r != ARES_SUCCESS) {
		*err = xasprintf("c-ares: %s", ares_strerror(r));
		return -1;
	}
	env = getenv("CARES_HOSTS");
	snprintf(d->hosts_file, sizeof(d->hosts_file), "%s", env && *env ? env : "/etc/hosts");
	return 0;
}

struct dns *dns_new(uv_loop_t *loop, const struct config *cfg, char **err)
{
	struct dns *d;
	struct ares_options o;
	struct ares_addr_port_node *servers = NULL;
	const char *list = config_str(cfg, CK_DNS_SERVERS);
	int r;

	r = ares_library_init(ARES_LIB_INIT_ALL);
	if (r != ARES_SUCCESS) {
		*err = xasprintf("c-ares: %s", ares_strerror(r));
		return NULL;
	}
	d = xcalloc(1, sizeof(*d));
	d->loop = loop;
	memset(&o, 0, sizeof(o));
	o.sock_state_cb = dns_sock_state_cb;
	o.sock_state_cb_data = d;
	/* c-ares 1.18's defaults (5 s, 4 tries, doubling) make a dead server
	 * cost 75 s; take both from the configuration. */
	o.timeout = (int)config_int(cfg, CK_DNS_TIMEOUT_MS);
	o.tries = (int)config_int(cfg, CK_DNS_TRIES);
	o.flags = ARES_FLAG_NOSEARCH | ARES_FLAG_NOALIASES;
	r = ares_init_options(&d->ch, &o,
	    ARES_OPT_SOCK_STATE_CB | ARES_OPT_TIMEOUTMS | ARES_OPT_TRIES | ARES_OPT_FLAGS);
	if (r != ARES_SUCCESS) {
		*err = xasprintf("c-ares: %s", ares_strerror(r));
		free(d);
		return NULL;
	}
	if (list && *list) {
		r = ares_set_servers_ports_csv(d->ch, list);
		if (r != ARES_SUCCESS) {
			*err = xasprintf(
			    "dns.servers: bad server list '%s': %s", list, ares_strerror(r));
			ares_destroy(d->ch);
			free(d);
			return NULL;
		}
	}
	if (dns_files_init(d, err) < 0) {
		ares_destroy(d->ch);
		free(d);
		return NULL;
	}
	if (ares_get_servers_ports(d->ch, &servers) == ARES_SUCCESS && servers) {
		char ip[INET6_ADDRSTRLEN] = "?";
		inet_ntop(servers->family, &servers->addr, ip, sizeof(ip));
		snprintf(d->server, sizeof(d->server),
		    servers->family == AF_INET6 ? "[%s]:%d" : "%s:%d", ip,
		    servers->udp_port ? servers->udp_port : 53);
		ares_free_data(servers);
	}
	d->lookup_ms = (uint64_t)o.timeout * o.tries;
	d->ip_validity_ms = (uint64_t)config_int(cfg, CK_DNS_IP_VALIDITY_SECONDS) * 1000;
	d->nbuckets = 1024;
	d->tab = xcalloc(d->nbuckets, sizeof(*d->tab));
	uv_timer_init(loop, &d->timer);
	d->timer.data = d;
	uv_idle_init(loop, &d->idle);
	d->idle.data = d;
	d->handles = 2;
	return d;
}

static struct dns_entry *dns_find(struct dns *d, const char *host)
{
	struct dns_entry *e = d->tab[dns_hash(host) & (d->nbuckets - 1)];

	while (e && strcmp(e->host, host) != 0)
		e = e->hnext;
	return e;
}

static void dns_entry_free(struct dns_entry *e)
{
	free(e->host);
	free(e->addrs);
	free(e->rr_text);
	free(e->error);
	free(e);
}

static void dns_grow(struct dns *d)
{
	size_t nb = d->nbuckets * 2;
	struct dns_entry **tab = xcalloc(nb, sizeof(*tab));

	for (size_t i = 0; i < d->nbuckets; i++) {
		struct dns_entry *e = d->tab[i], *next;
		for (; e; e = next) {
			next = e->hnext;
			e->hnext = tab[dns_hash(e->host) & (nb - 1)];
			tab[dns_hash(e->host) & (nb - 1)] = e;
		}
	}
	free(d->tab);
	d->tab = tab;
	d->nbuckets = nb;
}

/* Drops answered entries nobody waits on: expired ones first, then any,
 * until the cache is back to three quarters of its cap. Runs once per
 * DNS_CACHE_MAX/4 insertions, so its cost is constant per insertion. */
static void dns_purge(struct dns *d)
{
	uint64_t now = uv_now(d->loop);

	for (int pass = 0; pass < 2 && d->nentries > DNS_CACHE_MAX * 3 / 4; pass++)
		for (size_t i = 0; i < d->nbuckets; i++) {
			struct dns_entry **pp = &d->tab[i];
			while (*pp) {
				struct dns_entry *e = *pp;
				if (e->state == DNS_E_DONE && e->refs == 0 &&
				    (pass == 1 || e->expires <= now)) {
					*pp = e->hnext;
					dns_entry_free(e);
					d->nentries--;
				} else {
					pp = &e->hnext;
				}
			}
		}
}

static void dns_idle_start(struct dns *d)
{
	if (!d->closing)
		uv_idle_start(&d->idle, dns_tick_cb);
}

static void dns_ready_push(struct dns *d, struct dns_query *q)
{
	q->ready = 1;
	q->next = NULL;
	q->prev = d->ready_tail;
	if (d->ready_tail)
		d->ready_tail->next = q;
	else
		d->ready = q;
	d->ready_tail = q;
	dns_idle_start(d);
}

static void dns_enqueue(struct dns *d, struct dns_entry *e)
{
	e->state = DNS_E_QUEUED;
	e->qtype = 1; /* A */
	e->next = d->order;
	e->dns_status = ARES_ENOTFOUND;
	e->source = NULL;
	e->qnext = NULL;
	if (d->qtail)
		d->qtail->qnext = e;
	else
		d->qhead = e;
	d->qtail = e;
	dns_idle_start(d);
}

int dns_resolve(struct dns *d, const char *host, dns_cb cb, void *arg, struct dns_query **qp)
{
	struct dns_entry *e;
	struct dns_query *q;
	size_t hl = strlen(host);

	if (qp)
		*qp = NULL;
	if (hl == 0 || hl > 253)
		return -1;
	e = dns_find(d, host);
	if (e == NULL) {
		struct sockaddr_storage sa;

		if (d->nentries >= DNS_CACHE_MAX)
			dns_purge(d);
		if (d->nentries >= d->nbuckets * 2)
			dns_grow(d);
		e = xcalloc(1, sizeof(*e));
		e->d = d;
		e->host = xstrdup(host);
		e->hnext = d->tab[dns_hash(host) & (d->nbuckets - 1)];
		d->tab[dns_hash(host) & (d->nbuckets - 1)] = e;
		d->nentries++;
		if (dns_numeric(host, &sa) == 0) {
			/* Numeric hosts never go to DNS and never expire. */
			e->state = DNS_E_DONE;
			e->expires = UINT64_MAX;
			e->ans.status = STATUS_DNS_SUCCESS;
			e->ans.naddrs = 1;
			e->addrs = xmalloc(sizeof(*e->addrs));
			e->addrs[0] = sa;
			e->ans.addrs = e->addrs;
			inet_ntop(sa.ss_family,
			    sa.ss_family == AF_INET
				? (void *)&((struct sockaddr_in *)&sa)->sin_addr
				: (void *)&((struct sockaddr_in6 *)&sa)->sin6_addr,
			    e->ans.ip, sizeof(e->ans.ip));
			e->ans.fetch_time_ms = clock_wall_ms();
			e->ans.server = "";
			e->ans.rr_text = "";
		} else {
			dns_enqueue(d, e);
		}
	} else if (e->state == DNS_E_DONE && e->expires <= uv_now(d->loop) && e->refs == 0) {
		free(e->rr_text);
		free(e->error);
		free(e->addrs);
		e->rr_text = e->error = NULL;
		e->addrs = NULL;
		memset(&e->ans, 0, sizeof(e->ans));
		dns_enqueue(d, e);
	}
	q = xcalloc(1, sizeof(*q));
	q->d = d;
	q->e = e;
	q->cb = cb;
	q->arg = arg;
	e->refs++;
	if (e->state == DNS_E_DONE) {
		q->hit = 1;
		dns_ready_push(d, q);
	} else {
		q->next = e->waiters;
		if (e->waiters)
			e->waiters->prev = q;
		e->waiters = q;
	}
	if (qp)
		*qp = q;
	return 0;
}

int dns_peek(struct dns *d, const char *host, char ip[INET6_ADDRSTRLEN])
{
	struct dns_entry *e = dns_find(d, host);

	if (e == NULL || e->state != DNS_E_DONE || e->ans.status != STATUS_DNS_SUCCESS ||
	    e->ans.naddrs < 1 || e->expires <= uv_now(d->loop))
		return -1;
	memcpy(ip, e->ans.ip, INET6_ADDRSTRLEN);
	return 0;
}

static void dns_query_unlink(struct dns_query *q)
{
	struct dns *d = q->d;

	if (q->ready) {
		if (q->prev)
			q->prev->next = q->next;
		else
			d->ready = q->next;
		if (q->next)
			q->next->prev = q->prev;
		else
			d->ready_tail = q->prev;
	} else {
		if (q->prev)
			q->prev->next = q->next;
		else
			q->e->waiters = q->next;
		if (q->next)
			q->next->prev = q->prev;
	}
	q->e->refs--;
}

void dns_cancel(struct dns_query *q)
{
	if (q == NULL)
		return;
	dns_query_unlink(q);
	free(q);
}

/* Fills e's answer from a DNS reply. */
static int dns_parse(struct dns_entry *e, unsigned char *abuf, int alen)
{
	struct hostent *he = NULL;
	int n = 8, r, naliases = 0;
	uint32_t ttl = UINT32_MAX;
	struct buf rr = BUF_INIT;

	if (e->qtype == 1) {
		struct ares_addrttl at[8];
		r = ares_parse_a_reply(abuf, alen, &he, at, &n);
		if (r != ARES_SUCCESS)
			return r;
		e->addrs = xrealloc(e->addrs, (size_t)(n > 0 ? n : 1) * sizeof(*e->addrs));
		memset(e->addrs, 0, (size_t)(n > 0 ? n : 1) * sizeof(*e->addrs));
		for (int i = 0; i < n; i++) {
			struct sockaddr_in *s4 = (struct sockaddr_in *)&e->addrs[i];
			char ip[INET_ADDRSTRLEN];
			s4->sin_family = AF_INET;
			s4->sin_addr = at[i].ipaddr;
			inet_ntop(AF_INET, &at[i].ipaddr, ip, sizeof(ip));
			buf_appendf(&rr, "%s.\t%d\tIN\tA\t%s\n", e->host, at[i].ttl, ip);
			if ((uint32_t)at[i].ttl < ttl)
				ttl = at[i].ttl;
		}
	} else {
		struct ares_addr6ttl at[8];
		r = ares_parse_aaaa_reply(abuf, alen, &he, at, &n);
		if (r != ARES_SUCCESS)
			return r;
		e->addrs = xrealloc(e->addrs, (size_t)(n > 0 ? n : 1) * sizeof(*e->addrs));
		memset(e->addrs, 0, (size_t)(n > 0 ? n : 1) * sizeof(*e->addrs));
		for (int i = 0; i < n; i++) {
			struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&e->addrs[i];
			char ip[INET6_ADDRSTRLEN];
			s6->sin6_family = AF_INET6;
			memcpy(&s6->sin6_addr, &at[i].ip6addr, 16);
			inet_ntop(AF_INET6, &at[i].ip6addr, ip, sizeof(ip));
			buf_appendf(&rr, "%s.\t%d\tIN\tAAAA\t%s\n", e->host, at[i].ttl, ip);
			if ((uint32_t)at[i].ttl < ttl)
				ttl = at[i].ttl;
		}
	}
	for (char **a = he ? he->h_aliases : NULL; a && *a; a++)
		naliases++;
	if (he)
		ares_free_hostent(he);
	if (n <= 0 || naliases > DNS_MAX_CNAMES) {
		buf_free(&rr);
		return n <= 0 ? ARES_ENODATA : ARES_EBADRESP;
	}
	e->ans.naddrs = n;
	e->ans.addrs = e->addrs;
	e->ans.ttl = ttl;
	inet_ntop(e->addrs[0].ss_family,
	    e->addrs[0].ss_family == AF_INET
		? (void *)&((struct sockaddr_in *)&e->addrs[0])->sin_addr
		: (void *)&((struct sockaddr_in6 *)&e->addrs[0])->sin6_addr,
	    e->ans.ip, sizeof(e->ans.ip));
	e->rr_text = buf_steal(&rr);
	return ARES_SUCCESS;
}

static void dns_ares_cb(void *arg, int status, int timeouts, unsigned char *abuf, int alen)
{
	struct dns_entry *e = arg;
	struct dns *d;

	if (status == ARES_EDESTRUCTION)
		return;
	d = e->d;
	if (e->abandoned) {
		/* Answered as a timeout already; only the slot is freed now. */
		e->abandoned = 0;
		e->refs--;
		d->outstanding--;
		dns_idle_start(d);
		return;
	}
	if (status == ARES_SUCCESS)
		status = dns_parse(e, abuf, alen);
	if (status == ARES_ENODATA && e->qtype == 1) {
		/* No A record: try AAAA before giving up. */
		e->qtype = 28;
		ares_query(d->ch, e->host, 1, 28, dns_ares_cb, e);
		return;
	}
	d->outstanding--;
	dns_wire_unlink(d, e);
	if (status != ARES_SUCCESS && *e->next != '\0') {
		/* The hosts file comes after DNS in this system's order. */
		e->dns_status = status;
		dns_step(d, e);
		return;
	}
	dns_answered(d, e, status);
}

/* Records the outcome of e's lookup and hands it to every waiter. */
static void dns_answered(struct dns *d, struct dns_entry *e, int status)
{
	struct dns_query *q, *next;
	uint64_t keep;

	e->state = DNS_E_DONE;
	e->ans.fetch_time_ms = clock_wall_ms();
	e->ans.server = e->source != NULL ? e->source : d->server;
	if (status == ARES_SUCCESS) {
		e->ans.status = STATUS_DNS_SUCCESS;
		e->ans.rr_text = e->rr_text;
		keep = (uint64_t)e->ans.ttl * 1000;
		if (keep < d->ip_validity_ms)
			keep = d->ip_validity_ms;
	} else {
		e->ans.status = STATUS_DNS_FAILED;
		/* 1.18 reports SERVFAIL and REFUSED as ECONNREFUSED. */
		e->ans.cause = status == ARES_ENOTFOUND ? CAUSE_DNS_NXDOMAIN
		    : status == ARES_ENODATA		? CAUSE_DNS_NO_ADDRESS
		    : status == ARES_ETIMEOUT		? CAUSE_DNS_TIMEOUT
		    : status == ARES_ECONNREFUSED || status == ARES_ESERVFAIL ||
			status == ARES_EREFUSED
		    ? CAUSE_DNS_SERVER_FAILURE
		    : CAUSE_DNS_FAILED;
		e->error = xasprintf("%s (%s)", ares_strerror(status),
		    status == ARES_ENOTFOUND	  ? "NXDOMAIN"
			: status == ARES_ETIMEOUT ? "no answer within dns.timeout-ms x dns.tries"
			: status == ARES_ECONNREFUSED ? "server failure or refused"
						      : "lookup failed");
		e->ans.error = e->error;
		e->ans.rr_text = "";
		keep = DNS_NEGATIVE_TTL_S * 1000;
	}
	e->expires = uv_now(d->loop) + keep;
	for (q = e->waiters; q; q = next) {
		next = q->next;
		dns_ready_push(d, q);
	}
	e->waiters = NULL;
	dns_idle_start(d);
}

static void dns_wire_unlink(struct dns *d, struct dns_entry *e)
{
	if (!e->on_wire)
		return;
	if (e->wprev)
		e->wprev->wnext = e->wnext;
	else
		d->whead = e->wnext;
	if (e->wnext)
		e->wnext->wprev = e->wprev;
	else
		d->wtail = e->wprev;
	e->on_wire = 0;
}

/* c-ares backs off by doubling its timeout on every round, so a dead server
 * would cost timeout x (2^tries - 1); give up at timeout x tries instead.
 * Every lookup has the same budget, so the oldest on the wire expires first. */
static void dns_expire(struct dns *d)
{
	uint64_t now = uv_now(d->loop);

	while (d->whead && d->whead->deadline <= now) {
		struct dns_entry *e = d->whead;

		dns_wire_unlink(d, e);
		e->abandoned = 1;
		e->refs++; /* pinned until c-ares lets go of it */
		e->dns_status = ARES_ETIMEOUT;
		dns_step(d, e);
	}
}

/* Whether host is localhost or a name under it (RFC 6761 6.3), with or
 * without the root's dot. */
static int dns_localhost(const char *host)
{
	size_t n = strlen(host);

	if (n > 0 && host[n - 1] == '.')
		n--;
	return (n == 9 && strncasecmp(host, "localhost", 9) == 0) ||
	    (n > 10 && strncasecmp(host + n - 10, ".localhost", 10) == 0);
}

/* Keeps addresses a[0..n) as e's answer, IPv4 first as DNS's A-then-AAAA
 * would give them, with their records for the WARC (TTL 0: nothing said
 * how long they hold; the cache keeps them dns.ip-validity-seconds). */
static void dns_keep(
    struct dns_entry *e, const struct sockaddr_storage *a, int n, const char *source)
{
	struct buf rr = BUF_INIT;
	int k = 0;

	free(e->addrs);
	free(e->rr_text);
	e->addrs = xcalloc((size_t)n, sizeof(*e->addrs));
	for (int fam = 0; fam < 2; fam++)
		for (int i = 0; i < n; i++) {
			char ip[INET6_ADDRSTRLEN];
			const void *raw;

			if ((a[i].ss_family == AF_INET) != (fam == 0))
				continue;
			e->addrs[k++] = a[i];
			raw = a[i].ss_family == AF_INET
			    ? (const void *)&((const struct sockaddr_in *)&a[i])->sin_addr
			    : (const void *)&((const struct sockaddr_in6 *)&a[i])->sin6_addr;
			inet_ntop(a[i].ss_family, raw, ip, sizeof(ip));
			if (k == 1)
				snprintf(e->ans.ip, sizeof(e->ans.ip), "%s", ip);
			buf_appendf(&rr, "%s.\t0\tIN\t%s\t%s\n", e->host,
			    a[i].ss_family == AF_INET ? "A" : "AAAA", ip);
		}
	e->ans.naddrs = k;
	e->ans.addrs = e->addrs;
	e->ans.ttl = 0;
	e->rr_text = buf_steal(&rr);
	e->source = source;
}

struct dns_file_result {
	int done, status;
	struct ares_addrinfo *ai;
};

static void dns_file_cb(void *arg, int status, int timeouts, struct ares_addrinfo *ai)
{
	struct dns_file_result *r = arg;

	(void)timeouts;
	r->done = 1;
	r->status = status;
	r->ai = ai;
}

/* The hosts file's answer for e through c-ares: 0, or -1 if it has none. */
static int dns_file(struct dns *d, struct dns_entry *e)
{
	struct ares_addrinfo_hints h;
	struct dns_file_result r = {0, 0, NULL};
	struct sockaddr_storage a[16];
	const char *name = e->host;
	int n = 0;

	/* c-ares 1.18 answers a "localhost" missing from the file itself and
	 * leaks the name's copy as it does; the file's match ignores case,
	 * its own rule does not, so "LOCALHOST" reads the file alone and
	 * dns_step's rule gives the loopback addresses. */
	if (strcasecmp(name, "localhost") == 0)
		name = "LOCALHOST";
	memset(&h, 0, sizeof(h));
	h.ai_family = AF_UNSPEC;
	/* No sorting (it would connect a UDP socket per address); the file
	 * named by CARES_HOSTS when that is set (tern(1), ENVIRONMENT). */
	h.ai_flags = ARES_AI_NOSORT | ARES_AI_ENVHOSTS;
	ares_getaddrinfo(d->files, name, NULL, &h, dns_file_cb, &r);
	/* A channel whose only lookup is the file answers inside the call
	 * (c-ares reads the file in ares_getaddrinfo's first step). */
	assert(r.done);
	if (r.status == ARES_SUCCESS && r.ai != NULL)
		for (struct ares_addrinfo_node *p = r.ai->nodes; p && n < 16; p = p->ai_next) {
			if ((p->ai_family != AF_INET && p->ai_family != AF_INET6) ||
			    (size_t)p->ai_addrlen > sizeof(a[n]))
				continue;
			memset(&a[n], 0, sizeof(a[n]));
			memcpy(&a[n], p->ai_addr, (size_t)p->ai_addrlen);
			n++;
		}
	if (r.ai != NULL)
		ares_freeaddrinfo(r.ai);
	if (n == 0)
		return -1;
	dns_keep(e, a, n, d->hosts_file);
	return 0;
}

/* localhost names the hosts file left out: the loopback addresses. */
static void dns_loopback(struct dns_entry *e)
{
	struct sockaddr_storage a[2];
	struct sockaddr_in *s4 = (struct sockaddr_in *)&a[0];
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&a[1];

	memset(a, 0, sizeof(a));
	s4->sin_family = AF_INET;
	s4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s6->sin6_family = AF_INET6;
	s6->sin6_addr = in6addr_loopback;
	dns_keep(e, a, 2, "loopback (RFC 6761)");
}

/* Takes e through its lookups left: the hosts file's at once, DNS's on the
 * wire (its answer comes back to dns_ares_cb), and answers it when one
 * succeeds or none is left. */
static void dns_step(struct dns *d, struct dns_entry *e)
{
	for (;;) {
		char how = *e->next;

		if (how == '\0' && !dns_localhost(e->host)) {
			dns_answered(d, e, e->dns_status);
			return;
		}
		if (how == 'f') {
			e->next++;
			if (dns_file(d, e) == 0) {
				dns_answered(d, e, ARES_SUCCESS);
				return;
			}
			continue;
		}
		if (how == 'b')
			e->next++;
		if (dns_localhost(e->host)) {
			dns_loopback(e);
			dns_answered(d, e, ARES_SUCCESS);
			return;
		}
		e->deadline = uv_now(d->loop) + d->lookup_ms;
		e->wnext = NULL;
		e->wprev = d->wtail;
		if (d->wtail)
			d->wtail->wnext = e;
		else
			d->whead = e;
		d->wtail = e;
		e->on_wire = 1;
		d->outstanding++;
		ares_query(d->ch, e->host, 1, 1, dns_ares_cb, e);
		return;
	}
}

/* Starts queued lookups, as many as there is room for on the wire (a
 * lookup that starts with the hosts file or a localhost name takes none
 * until it goes to DNS), at most DNS_TICK_BUDGET a wakeup. */
static void dns_start(struct dns *d)
{
	int budget = DNS_TICK_BUDGET;

	while (d->qhead && budget-- > 0) {
		struct dns_entry *e = d->qhead;

		if (*e->next == 'b' && !dns_localhost(e->host) &&
		    d->outstanding >= DNS_MAX_OUTSTANDING)
			break;
		d->qhead = e->qnext;
		if (d->qhead == NULL)
			d->qtail = NULL;
		e->state = DNS_E_QUERYING;
		e->qnext = NULL;
		dns_step(d, e);
	}
	dns_timer_rearm(d);
}

static void dns_tick_cb(uv_idle_t *h)
{
	struct dns *d = h->data;
	int budget = DNS_TICK_BUDGET;

	dns_start(d);
	while (d->ready && budget-- > 0) {
		struct dns_query *q = d->ready;
		struct dns_answer a = q->e->ans;

		a.from_cache = q->hit;
		dns_query_unlink(q);
		q->cb(q->arg, &a);
		free(q);
		if (d->closing)
			return;
	}
	if (d->ready == NULL && (d->qhead == NULL || d->outstanding >= DNS_MAX_OUTSTANDING))
		uv_idle_stop(&d->idle);
}

static void dns_sock_close_cb(uv_handle_t *h)
{
	struct dns_sock *s = h->data;
	struct dns *d = s->d;

	free(s);
	dns_handle_gone(d);
}

static void dns_close_cb(uv_handle_t *h)
{
	dns_handle_gone(h->data);
}

/* Frees the resolver once its last handle has closed. */
static void dns_handle_gone(struct dns *d)
{
	if (--d->handles == 0 && d->closing) {
		free(d->tab);
		free(d);
	}
}

void dns_free(struct dns *d)
{
	if (d == NULL)
		return;
	d->closing = 1;
	/* Stops c-ares first: its callbacks see ARES_EDESTRUCTION and its
	 * socket-state callback closes our poll handles. */
	ares_destroy(d->ch);
	ares_destroy(d->files);
	while (d->socks) {
		struct dns_sock *s = d->socks;
		d->socks = s->next;
		uv_poll_stop(&s->poll);
		uv_close((uv_handle_t *)&s->poll, dns_sock_close_cb);
	}
	for (struct dns_query *q = d->ready, *n; q; q = n) {
		n = q->next;
		free(q);
	}
	for (size_t i = 0; i < d->nbuckets; i++) {
		struct dns_entry *e = d->tab[i], *n;
		for (; e; e = n) {
			n = e->hnext;
			for (struct dns_query *q = e->waiters, *qn; q; q = qn) {
				qn = q->next;
				free(q);
			}
			dns_entry_free(e);
		}
	}
	uv_close((uv_handle_t *)&d->timer, dns_close_cb);
	uv_close((uv_handle_t *)&d->idle, dns_close_cb);
}

size_t dns_cache_count(const struct dns *d)
{
	return d->nentries;
}

/* The NATS side of cluster mode (natsio.h): the client's thread, the
 * connection and the JetStream stream and buckets it sets up, and the
 * public API. Everything here runs on the client's threads (natsio_main
 * and the commands it carries out, in the rooms behind private.h; the
 * lease writes' natsio_lease_main, which calls natscmd_exec_kv only) or in
 * nats.c's callbacks (natscall_*_cb), which only copy what they received
 * into an event for the loop. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nats/nats.h>
#include <openssl/ssl.h>

#include "cluster/private.h"
#include "cluster/fpset.h"
#include "lib/urlcreds.h"
#include "lib/xmalloc.h"

/* How many commands run before a replay gets its next fetch. */
#define NATSIO_COMMANDS_PER_FETCH 64
/* Asynchronous publications in flight before publishing waits. */
#define NATSIO_MAX_PUB_PENDING 4096

void natsio_node_key(const char *node, char *out, size_t cap)
{
	size_t i, j = 0;
	uint64_t h = fpset_hash(node, strlen(node));

	/* Keys hold [-_=a-zA-Z0-9] (and '.' between tokens); the hash keeps
	 * two ids that differ only in replaced characters apart. */
	for (i = 0; node[i] != '\0' && j + 20 < cap && j < 64; i++) {
		char c = node[i];
		out[j++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			(c >= '0' && c <= '9') || c == '-' || c == '_'
		    ? c
		    : '_';
	}
	snprintf(out + j, cap - j, "-%016" PRIx64, h);
}

/* Freeing. */

void natsio_snapshot_free(struct natsio_snapshot *s)
{
	size_t i;

	if (s == NULL)
		return;
	if (s->owner_id != NULL)
		for (i = 0; i < s->partitions; i++)
			free(s->owner_id[i]);
	free(s->owner_id);
	if (s->owner_nonce != NULL)
		for (i = 0; i < s->partitions; i++)
			free(s->owner_nonce[i]);
	free(s->owner_nonce);
	free(s->owners);
	free(s->gone);
	free(s->ack_pending);
	free(s->ack_floor);
	for (i = 0; i < s->nnodes; i++) {
		free(s->nodes[i].id);
		free(s->nodes[i].json);
	}
	free(s->nodes);
	free(s);
}

void natsio_replay_free(struct natsio_replay *r)
{
	if (r == NULL)
		return;
	free(r->kind);
	free(r->off);
	free(r->len);
	free(r->data);
	free(r);
}

void natsio_item_free(struct mbox_item *it)
{
	if (it == NULL)
		return;
	if (it->kind == NATSIO_EV_SNAPSHOT)
		natsio_snapshot_free((struct natsio_snapshot *)it);
	else if (it->kind == NATSIO_EV_REPLAY)
		natsio_replay_free((struct natsio_replay *)it);
	else if (it->kind == NATSIO_COMPACT_WRITE) {
		free(((struct natsio_compact *)it)->urls);
		free(((struct natsio_compact *)it)->dones);
		free(it);
	} else
		free(it);
}

static void natsio_exec_text(struct natsio *n, struct natsio_text *t, int kind)
{
	/* A heartbeat is not retried: the next view sends a fresh one. */
	if (kind == NATSIO_HEARTBEAT)
		kvStore_Put(NULL, n->nodes, n->node_key, t->data, (int)t->len);
	else if (kind == NATSIO_CONTROL)
		natsConnection_Publish(n->nc, n->ctl_subject, t->data, (int)t->len);
	free(t);
}

static void natsio_exec_end(struct natsio *n, struct natsio_part *c)
{
	char v[32];
	struct natscall_try t;
	natsStatus s;

	snprintf(v, sizeof v, "%" PRIu64, c->start_seq);
	natscall_try_init(&t, n, "end marker");
	do
		s = kvStore_PutString(NULL, n->meta, "end", v);
	while (natscall_try_again(&t, s, 0));
	free(c);
}

static void natsio_exec(struct natsio *n, struct mbox_item *it)
{
	switch (it->kind) {
	case NATSIO_CLAIM:
	case NATSIO_RENEW:
	case NATSIO_RELEASE:
		natscmd_exec_kv(n, (struct natsio_kv *)it);
		break;
	case NATSIO_PUBLISH:
		natscmd_exec_publish(n, (struct natsio_pub *)it);
		break;
	case NATSIO_ACK:
		natscmd_exec_ack(n, (struct natsio_ack *)it);
		break;
	case NATSIO_REPLAY:
		natsreplay_exec(n, (struct natsio_part *)it);
		break;
	case NATSIO_SUBSCRIBE:
		natscmd_exec_subscribe(n, (struct natsio_part *)it);
		break;
	case NATSIO_UNSUBSCRIBE:
		natscmd_exec_unsubscribe(n, (struct natsio_part *)it);
		break;
	case NATSIO_HEARTBEAT:
	case NATSIO_CONTROL:
		natsio_exec_text(n, (struct natsio_text *)it, it->kind);
		break;
	case NATSIO_SNAPSHOT:
		natssnap_exec(n, (struct natsio_snapreq *)it);
		break;
	case NATSIO_END:
		natsio_exec_end(n, (struct natsio_part *)it);
		break;
	case NATSIO_COMPACT_READ:
		natsreplay_compact_read(n, (struct natsio_part *)it);
		break;
	case NATSIO_COMPACT_WRITE:
		natsreplay_compact_write(n, (struct natsio_compact *)it);
		break;
	default:
		free(it);
	}
}

/* Shutting down: subscriptions go (their consumers stay: the next owner
 * replaces them), publications still out get a few seconds to be stored,
 * then the connection closes. */
/* Commands the thread will never carry out: the message handles of their
 * acknowledgments are let go unacknowledged (the server delivers those
 * messages again, to whichever node owns their partitions next). */
static void natsio_drop_commands(struct natsio *n)
{
	struct mbox_item *it;

	while ((it = mailbox_take_command(n->mb, 0)) != NULL ||
	    (it = mailbox_take_urgent(n->mb, 0)) != NULL) {
		if (it->kind == NATSIO_ACK) {
			struct natsio_ack *a = (struct natsio_ack *)it;
			for (size_t i = 0; i < a->n; i++)
				natsMsg_Destroy(a->handle[i]);
		}
		natsio_item_free(it);
	}
}

static void natsio_shutdown(struct natsio *n)
{
	jsPubOptions po;
	unsigned p;

	while (n->replays != NULL) {
		struct natsio_replay_job *j = n->replays;
		n->replays = j->next;
		natsSubscription_Unsubscribe(j->sub);
		natsSubscription_Destroy(j->sub);
		free(j);
	}
	for (p = 0; p < n->o.partitions; p++)
		if (n->sub[p] != NULL) {
			natsSubscription_Destroy(n->sub[p]);
			n->sub[p] = NULL;
		}
	natsSubscription_Destroy(n->seeds_sub);
	natsSubscription_Destroy(n->ctl_sub);
	n->seeds_sub = n->ctl_sub = NULL;
	/* Every handler has returned (a few seconds at most) before the
	 * connection and the library close. */
	uv_mutex_lock(&n->open_lock);
	while (n->open_subs > 0 &&
	    uv_cond_timedwait(&n->open_cond, &n->open_lock, (uint64_t)3000 * 1000000u) == 0)
		;
	uv_mutex_unlock(&n->open_lock);
	jsPubOptions_Init(&po);
	po.MaxWait = 5000;
	js_PublishAsyncComplete(n->js, &po);
	natsConnection_Close(n->nc);
}

/* Lease writes, on a thread of their own: every other command may wait
 * seconds for a stream or a consumer whose server was lost (retried,
 * above), and a renewal queued behind it would let the lease's window
 * close, or the lease expire, on a bucket that answers. Only the owners
 * bucket's own outage delays them. */
static void natsio_lease_main(void *arg)
{
	struct natsio *n = arg;

	for (;;) {
		struct mbox_item *it = mailbox_take_urgent(n->mb, 1000);
		if (it == NULL)
			continue;
		if (it->kind == NATSIO_SHUTDOWN) {
			free(it);
			break;
		}
		natsio_exec(n, it);
	}
}

static void natsio_stop_lease_thread(struct natsio *n)
{
	struct mbox_item *it = xcalloc(1, sizeof *it);

	it->kind = NATSIO_SHUTDOWN;
	__atomic_store_n(&n->stopping, 1, __ATOMIC_RELAXED);
	mailbox_to_thread_urgent(n->mb, it);
	uv_thread_join(&n->lease_thread);
}

static void natsio_main(void *arg)
{
	struct natsio *n = arg;
	unsigned since_fetch = 0;

	for (;;) {
		struct mbox_item *it = mailbox_take_command(n->mb, n->replays != NULL ? 0 : 1000);
		if (it != NULL) {
			if (it->kind == NATSIO_SHUTDOWN) {
				free(it);
				natsio_stop_lease_thread(n);
				break;
			}
			natsio_exec(n, it);
			if (n->replays == NULL || ++since_fetch < NATSIO_COMMANDS_PER_FETCH)
				continue;
		}
		since_fetch = 0;
		if (n->replays != NULL)
			natsreplay_step(n);
	}
	natsio_shutdown(n);
	/* Commands posted after the shutdown are dropped with it. */
	natsio_drop_commands(n);
	{
		struct mbox_item *done = xcalloc(1, sizeof *done);
		done->kind = NATSIO_EV_CLOSED;
		mailbox_to_loop(n->mb, done);
	}
}

/* Start: connect, make or bind the stream and buckets, check them. */

static natsStatus natsio_bucket(
    struct natsio *n, kvStore **kv, const char *suffix, int64_t ttl_ms, char **err, int *usage)
{
	char name[200];
	kvConfig kc;
	kvStatus *st = NULL;
	struct natscall_try t;
	natsStatus s;

	snprintf(name, sizeof name, "tern-%s-%s", n->o.crawl, suffix);
	natscall_try_init(&t, n, name);
	do
		s = js_KeyValue(kv, n->js, name);
	while (natscall_try_again(&t, s, 0));
	if (s == NATS_NOT_FOUND) {
		kvConfig_Init(&kc);
		kc.Bucket = name;
		kc.History = 1;
		kc.TTL = ttl_ms * 1000000;
		kc.Replicas = n->o.replicas;
		kc.StorageType = js_FileStorage;
		natscall_try_init(&t, n, name);
		do
			s = js_CreateKeyValue(kv, n->js, &kc);
		while (natscall_try_again(&t, s, 0));
		/* Another node may have made it between the two calls (or an
		 * attempt that timed out did). */
		if (s != NATS_OK) {
			natscall_try_init(&t, n, name);
			do
				s = js_KeyValue(kv, n->js, name);
			while (natscall_try_again(&t, s, 0));
		}
	}
	if (s != NATS_OK) {
		char e[300];
		natscall_err(e, sizeof e, name, s);
		*err = xasprintf("NATS at %s: %s", n->shown, e);
		return s;
	}
	natscall_try_init(&t, n, name);
	do
		s = kvStore_Status(&st, *kv);
	while (natscall_try_again(&t, s, 0));
	if (s == NATS_OK) {
		int64_t have = kvStatus_TTL(st) / 1000000;
		kvStatus_Destroy(st);
		if (have != ttl_ms) {
			*err = xasprintf("cluster.lease-seconds: crawl '%s' on %s uses %" PRId64
					 " s, not %" PRId64 " s",
			    n->o.crawl, n->shown, have / 1000, ttl_ms / 1000);
			*usage = 1;
			return NATS_ERR;
		}
	}
	return NATS_OK;
}

/* The crawl's setting KEY in the meta bucket: written by the first node,
 * compared by every other (a mismatch is a usage error: exit 2). */
static natsStatus natsio_meta_check(
    struct natsio *n, const char *key, const char *name, const char *want, char **err, int *usage)
{
	struct natscall_try t;
	natsStatus s;
	kvEntry *e = NULL;
	uint64_t rev;

	natscall_try_init(&t, n, key);
	do
		s = kvStore_CreateString(&rev, n->meta, key, want);
	while (natscall_try_again(&t, s, 0));
	if (s == NATS_OK)
		return NATS_OK;
	natscall_try_init(&t, n, key);
	do
		s = kvStore_Get(&e, n->meta, key);
	while (natscall_try_again(&t, s, 0));
	if (s != NATS_OK) {
		char e2[300];
		natscall_err(e2, sizeof e2, key, s);
		*err = xasprintf("NATS at %s: %s", n->shown, e2);
		return s;
	}
	if (strcmp(kvEntry_ValueString(e), want) != 0) {
		if (strcmp(key, "partitions") == 0)
			*err = xasprintf(
			    "cluster.partitions: crawl '%s' on %s has %s partitions, not %s",
			    n->o.crawl, n->shown, kvEntry_ValueString(e), want);
		else
			*err = xasprintf("%s: crawl '%s' on %s is %s, not %s (every node "
					 "of one crawl gives the same)",
			    name, n->o.crawl, n->shown, kvEntry_ValueString(e), want);
		*usage = 1;
		kvEntry_Destroy(e);
		return NATS_ERR;
	}
	kvEntry_Destroy(e);
	return NATS_OK;
}

static natsStatus natsio_setup(struct natsio *n, char **err, int *usage)
{
	jsOptions jo;
	jsStreamConfig sc;
	jsStreamInfo *si = NULL;
	char subjects[200], pbuf[32];
	const char *subj[1];
	struct natscall_try t;
	jsErrCode jerr = 0;
	natsStatus s;

	jsOptions_Init(&jo);
	jo.Wait = (int64_t)n->o.api_timeout_ms;
	jo.PublishAsync.AckHandler = natscall_puback_cb;
	jo.PublishAsync.AckHandlerClosure = n;
	jo.PublishAsync.MaxPending = NATSIO_MAX_PUB_PENDING;
	s = natsConnection_JetStream(&n->js, n->nc, &jo);
	if (s == NATS_OK) {
		natscall_try_init(&t, n, "stream information");
		do
			s = js_GetStreamInfo(&si, n->js, n->stream, NULL, &jerr);
		while (natscall_try_again(&t, s, jerr));
		if (s == NATS_NOT_FOUND) {
			snprintf(subjects, sizeof subjects, "%s*.*", n->prefix);
			subj[0] = subjects;
			jsStreamConfig_Init(&sc);
			sc.Name = n->stream;
			sc.Subjects = subj;
			sc.SubjectsLen = 1;
			sc.Storage = js_FileStorage;
			sc.Replicas = n->o.replicas;
			natscall_try_init(&t, n, "stream creation");
			do
				s = js_AddStream(&si, n->js, &sc, NULL, &jerr);
			while (natscall_try_again(&t, s, jerr));
			/* Made by another node meanwhile, or by an attempt whose
			 * answer timed out. */
			if (s != NATS_OK) {
				natscall_try_init(&t, n, "stream information");
				do
					s = js_GetStreamInfo(&si, n->js, n->stream, NULL, &jerr);
				while (natscall_try_again(&t, s, jerr));
			}
		}
		jsStreamInfo_Destroy(si);
	}
	if (s != NATS_OK) {
		char e2[300];
		natscall_err(e2, sizeof e2, "JetStream", s);
		*err = xasprintf("NATS at %s: %s (is the server started with -js?)", n->shown, e2);
		return s;
	}
	if ((s = natsio_bucket(n, &n->owners, "owners", (int64_t)n->o.lease_ms, err, usage)) !=
		NATS_OK ||
	    (s = natsio_bucket(n, &n->nodes, "nodes", (int64_t)n->o.lease_ms, err, usage)) !=
		NATS_OK ||
	    (s = natsio_bucket(n, &n->meta, "meta", 0, err, usage)) != NATS_OK)
		return s;
	/* The partition count and the other settings nodes must share are
	 * fixed by the first node of the crawl: nodes partitioning
	 * differently would disagree on who owns a URI, a continuous node and
	 * a one-time node on the end (doc/cluster.md lists them). */
	snprintf(pbuf, sizeof pbuf, "%u", n->o.partitions);
	if ((s = natsio_meta_check(n, "partitions", "cluster.partitions", pbuf, err, usage)) !=
	    NATS_OK)
		return s;
	for (size_t i = 0; i < n->o.nagree; i++)
		if ((s = natsio_meta_check(n, n->o.agree[i].key, n->o.agree[i].name,
			 n->o.agree[i].value, err, usage)) != NATS_OK)
			return s;
	/* The caller's, valid only while starting. */
	n->o.agree = NULL;
	n->o.nagree = 0;
	{
		jsSubOptions so;
		char seeds[200];
		jsSubOptions_Init(&so);
		so.Stream = n->stream;
		so.Ordered = true;
		natscall_subject(n, NATSIO_SEEDS, 0, seeds, sizeof seeds);
		natscall_try_init(&t, n, "seeds");
		do
			s = js_Subscribe(
			    &n->seeds_sub, n->js, seeds, natscall_seed_cb, n, NULL, &so, &jerr);
		while (natscall_try_again(&t, s, jerr));
	}
	if (s == NATS_OK &&
	    natsSubscription_SetOnCompleteCB(n->seeds_sub, natscall_closed_cb, n) == NATS_OK)
		natscall_open_sub(n, 1);
	if (s == NATS_OK)
		s = natsConnection_Subscribe(
		    &n->ctl_sub, n->nc, n->ctl_subject, natscall_ctl_cb, n);
	if (s == NATS_OK &&
	    natsSubscription_SetOnCompleteCB(n->ctl_sub, natscall_closed_cb, n) == NATS_OK)
		natscall_open_sub(n, 1);
	if (s != NATS_OK) {
		char e2[300];
		natscall_err(e2, sizeof e2, "subscribe", s);
		*err = xasprintf("NATS at %s: %s", n->shown, e2);
	}
	return s;
}

static void natsio_comp_free(SSL_COMP *c)
{
	OPENSSL_free(c);
}

static void natsio_free(struct natsio *n)
{
	natsSubscription_Destroy(n->seeds_sub);
	natsSubscription_Destroy(n->ctl_sub);
	kvStore_Destroy(n->owners);
	kvStore_Destroy(n->nodes);
	kvStore_Destroy(n->meta);
	jsCtx_Destroy(n->js);
	natsConnection_Destroy(n->nc);
	natsOptions_Destroy(n->opts);
	/* nats.c's own threads end here, so that nothing of the library
	 * outlives cluster mode. */
	nats_CloseAndWait(5000);
	/* nats.c, once it used TLS (asked to, or because the server requires
	 * it), frees OpenSSL's list of compression methods at exit, and
	 * OpenSSL frees it again after it (measured: a crash in
	 * OPENSSL_cleanup): the list is freed here and left empty, which both
	 * frees at exit accept. */
	sk_SSL_COMP_pop_free(SSL_COMP_set0_compression_methods(NULL), natsio_comp_free);
	free((char *)n->o.url);
	free(n->shown);
	free((char *)n->o.crawl);
	free((char *)n->o.node);
	free((char *)n->o.lease_value);
	free(n->sub);
	free(n->subctx);
	uv_cond_destroy(&n->open_cond);
	uv_mutex_destroy(&n->open_lock);
	free(n);
}

struct natsio *natsio_start(const struct natsio_opts *o, struct mailbox *mb, char **err, int *usage)
{
	struct natsio *n = xcalloc(1, sizeof *n);
	natsStatus s;
	unsigned p;

	*usage = 0;
	n->o = *o;
	n->o.url = xstrdup(o->url);
	n->shown = urlcreds_hide(o->url);
	memset(&n->o.auth, 0, sizeof n->o.auth);
	n->o.crawl = xstrdup(o->crawl);
	n->o.node = xstrdup(o->node);
	n->o.lease_value = xstrdup(o->lease_value);
	n->mb = mb;
	if (n->o.api_timeout_ms == 0)
		n->o.api_timeout_ms = 2000;
	if (n->o.api_backoff_ms == 0)
		n->o.api_backoff_ms = 250;
	if (uv_mutex_init(&n->open_lock) != 0 || uv_cond_init(&n->open_cond) != 0)
		abort();
	n->sub = xcalloc(o->partitions, sizeof *n->sub);
	n->subctx = xcalloc(o->partitions, sizeof *n->subctx);
	for (p = 0; p < o->partitions; p++) {
		n->subctx[p].n = n;
		n->subctx[p].partition = p;
	}
	snprintf(n->stream, sizeof n->stream, "tern-%s", o->crawl);
	snprintf(n->prefix, sizeof n->prefix, "tern.%s.", o->crawl);
	snprintf(n->ctl_subject, sizeof n->ctl_subject, "tern-ctl.%s", o->crawl);
	{
		/* The lease value ends in this process's nonce: message ids
		 * start with it, so two runs never share one. */
		const char *sp = strrchr(o->lease_value, ' ');
		snprintf(n->nonce, sizeof n->nonce, "%s", sp != NULL ? sp + 1 : "0");
		snprintf(n->msgid_prefix, sizeof n->msgid_prefix, "%s.", n->nonce);
	}
	natsio_node_key(o->node, n->node_key, sizeof n->node_key);

	s = natsOptions_Create(&n->opts);
	if (s == NATS_OK)
		s = natsauth_set_servers(n->opts, o->url);
	if (s == NATS_OK)
		s = natsOptions_SetName(n->opts, o->node);
	if (s == NATS_OK)
		s = natsOptions_SetTimeout(n->opts, 3000);
	if (s == NATS_OK)
		s = natsOptions_SetMaxReconnect(n->opts, -1);
	if (s == NATS_OK)
		s = natsOptions_SetReconnectWait(n->opts, 250);
	if (s == NATS_OK)
		s = natsOptions_SetReconnectBufSize(n->opts, 64 * 1024 * 1024);
	if (s == NATS_OK)
		s = natsOptions_SetPingInterval(n->opts, 5000);
	if (s == NATS_OK)
		s = natsOptions_UseGlobalMessageDelivery(n->opts, true);
	if (s == NATS_OK)
		s = natsOptions_SetDisconnectedCB(n->opts, natscall_disconnected_cb, n);
	if (s == NATS_OK)
		s = natsOptions_SetReconnectedCB(n->opts, natscall_reconnected_cb, n);
	if (s == NATS_OK)
		s = natsOptions_SetErrorHandler(n->opts, natscall_error_cb, n);
	if (s == NATS_OK && natsauth_set(n, &o->auth, err) != NATS_OK) {
		*usage = 1;
		natsio_free(n);
		return NULL;
	}
	if (s == NATS_OK) {
		s = natsConnection_Connect(&n->nc, n->opts);
		if (s != NATS_OK) {
			*err = natsauth_connect_error(n, s, usage);
			natsio_free(n);
			return NULL;
		}
	}
	if (s != NATS_OK) {
		*err = xasprintf("NATS options for %s: %s", n->shown, natsStatus_GetText(s));
		natsio_free(n);
		return NULL;
	}
	if (natsio_setup(n, err, usage) != NATS_OK) {
		uv_mutex_lock(&n->open_lock);
		if (n->refused[0] != '\0') {
			char *e = xasprintf(
			    "%s; the server refused this node a subject of crawl '%s' (%s): "
			    "its user's permissions must allow the crawl's subjects "
			    "(doc/cluster.md, \"Who can steer a crawl\")",
			    *err, n->o.crawl, n->refused);
			free(*err);
			*err = e;
			*usage = 1;
		}
		uv_mutex_unlock(&n->open_lock);
		natsConnection_Close(n->nc);
		natsio_free(n);
		return NULL;
	}
	mailbox_split_urgent(mb);
	if (uv_thread_create(&n->lease_thread, natsio_lease_main, n) != 0) {
		*err = xstrdup("cannot start the NATS client's thread");
		natsConnection_Close(n->nc);
		natsio_free(n);
		return NULL;
	}
	if (uv_thread_create(&n->thread, natsio_main, n) != 0) {
		*err = xstrdup("cannot start the NATS client's thread");
		natsio_stop_lease_thread(n);
		natsConnection_Close(n->nc);
		natsio_free(n);
		return NULL;
	}
	return n;
}

void natsio_join(struct natsio *n)
{
	uv_thread_join(&n->thread);
	/* What the loop posted between the thread's last look and its end. */
	natsio_drop_commands(n);
	natsio_free(n);
}

void natsio_drop(void *handle)
{
	natsMsg_Destroy(handle);
}

struct natsio_snapshot *natsio_read(const char *url, const struct natsio_auth *auth,
    const char *crawl, unsigned partitions, char **err)
{
	struct natsio *n = xcalloc(1, sizeof *n);
	struct natsio_snapshot *s = NULL;
	char name[200];
	natsStatus st;

	n->o.url = xstrdup(url);
	n->shown = urlcreds_hide(url);
	n->o.crawl = xstrdup(crawl);
	n->o.node = xstrdup("");
	n->o.lease_value = xstrdup("");
	n->o.partitions = partitions;
	if (uv_mutex_init(&n->open_lock) != 0 || uv_cond_init(&n->open_cond) != 0)
		abort();
	snprintf(n->stream, sizeof n->stream, "tern-%s", crawl);
	st = natsOptions_Create(&n->opts);
	if (st == NATS_OK)
		st = natsauth_set_servers(n->opts, url);
	if (st == NATS_OK)
		st = natsOptions_SetTimeout(n->opts, 3000);
	if (st == NATS_OK)
		st = natsOptions_SetMaxReconnect(n->opts, 0);
	if (st == NATS_OK && (st = natsauth_set(n, auth, err)) != NATS_OK)
		goto out;
	if (st == NATS_OK && (st = natsConnection_Connect(&n->nc, n->opts)) != NATS_OK) {
		int usage = 0;
		*err = natsauth_connect_error(n, st, &usage);
		goto out;
	}
	if (st == NATS_OK)
		st = natsConnection_JetStream(&n->js, n->nc, NULL);
	/* Bound, never made: a report must not create a crawl. */
	snprintf(name, sizeof name, "tern-%s-owners", crawl);
	if (st == NATS_OK)
		st = js_KeyValue(&n->owners, n->js, name);
	snprintf(name, sizeof name, "tern-%s-nodes", crawl);
	if (st == NATS_OK)
		st = js_KeyValue(&n->nodes, n->js, name);
	snprintf(name, sizeof name, "tern-%s-meta", crawl);
	if (st == NATS_OK)
		st = js_KeyValue(&n->meta, n->js, name);
	if (st != NATS_OK) {
		*err = xasprintf("crawl '%s' on NATS at %s: %s", crawl, n->shown,
		    st == NATS_NOT_FOUND ? "not found" : natsStatus_GetText(st));
		goto out;
	}
	s = natssnap_take(n, 0, 0);
	if (!s->ok) {
		*err = xasprintf("NATS at %s: %s", n->shown, s->err);
		natsio_snapshot_free(s);
		s = NULL;
	}
out:
	if (n->nc != NULL)
		natsConnection_Close(n->nc);
	natsio_free(n);
	return s;
}

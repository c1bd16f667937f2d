/* Calls into nats.c and back (private.h): nats.c's callbacks, which only
 * copy what they received into an event for the loop; the retries of a
 * call that a leader election interrupts; the text of an error; the
 * stream's subjects and the buckets' keys. The bottom room of the NATS
 * side: it calls no other. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/private.h"
#include "lib/xmalloc.h"

static void natscall_post_text(struct natsio *n, int kind, const char *data, size_t len);

void natscall_err(char *dst, size_t cap, const char *what, natsStatus s)
{
	const char *last = nats_GetLastError(NULL);

	snprintf(dst, cap, "%s: %s%s%s", what, natsStatus_GetText(s),
	    last != NULL && *last ? ": " : "", last != NULL ? last : "");
}

/* Retries. In a NATS cluster, losing a server leaves the streams and
 * buckets it led, and the cluster's metadata if it led that, without a
 * leader until the others elect one (seconds): calls to them time out, or
 * find no responder, meanwhile. Such a call is sent again after a wait
 * that doubles (natsio_opts), the other failures at once are final:
 *
 *	struct natscall_try t;
 *	natscall_try_init(&t, n, "stream information");
 *	do
 *		s = js_GetStreamInfo(...);
 *	while (natscall_try_again(&t, s, jerr));
 */

void natscall_try_init(struct natscall_try *t, struct natsio *n, const char *what)
{
	t->n = n;
	t->what = what;
	t->attempt = 0;
	t->wait_ms = n->o.api_backoff_ms;
}

/* Would the same call succeed once a leader is elected? Key-value calls
 * give no error code: the server's text tells. */
int natscall_transient(natsStatus s, jsErrCode e)
{
	const char *last;

	if (s == NATS_TIMEOUT || s == NATS_NO_RESPONDERS || s == NATS_CONNECTION_DISCONNECTED)
		return 1;
	if (e == JSClusterNotAvailErr || e == JSClusterNotLeaderErr || e == JSClusterIncompleteErr)
		return 1;
	last = nats_GetLastError(NULL);
	return s != NATS_OK && last != NULL &&
	    (strstr(last, "temporarily unavailable") != NULL ||
		strstr(last, "no suitable peers") != NULL || strstr(last, "not leader") != NULL ||
		strstr(last, "no responders") != NULL || strstr(last, "timeout") != NULL);
}

int natscall_try_again(struct natscall_try *t, natsStatus s, jsErrCode e)
{
	char line[300], why[200];
	int len;

	if (s == NATS_OK || t->attempt >= t->n->o.api_retries || !natscall_transient(s, e) ||
	    __atomic_load_n(&t->n->stopping, __ATOMIC_RELAXED))
		return 0;
	t->attempt++;
	natscall_err(why, sizeof why, t->what, s);
	len = snprintf(line, sizeof line,
	    "cluster: %s; sent again in %" PRIu64 " ms (retry %u of %u)", why, t->wait_ms,
	    t->attempt, t->n->o.api_retries);
	if (t->n->mb != NULL)
		natscall_post_text(t->n, NATSIO_EV_NOTE, line,
		    len < (int)sizeof line ? (size_t)len : sizeof line - 1);
	nats_Sleep((int64_t)t->wait_ms);
	t->wait_ms =
	    t->wait_ms * 2 < t->n->o.api_timeout_ms ? t->wait_ms * 2 : t->n->o.api_timeout_ms;
	return 1;
}

void natscall_part_key(unsigned p, char *out, size_t cap)
{
	snprintf(out, cap, "p%u", p);
}

void natscall_subject(
    const struct natsio *n, enum natsio_subject s, unsigned p, char *out, size_t cap)
{
	if (s == NATSIO_SEEDS)
		snprintf(out, cap, "%sseed.all", n->prefix);
	else
		snprintf(out, cap, "%s%s.%u", n->prefix,
		    s == NATSIO_URL	  ? "url"
			: s == NATSIO_OWN ? "own"
					  : "done",
		    p);
}

/* Callbacks from nats.c's threads: copy, post, return. */

static void natscall_post_text(struct natsio *n, int kind, const char *data, size_t len)
{
	struct natsio_text *t = xmalloc(sizeof *t + len + 1);

	t->it.kind = kind;
	t->len = len;
	memcpy(t->data, data, len);
	t->data[len] = '\0';
	mailbox_to_loop(n->mb, &t->it);
}

static void natscall_link_cb(natsConnection *nc, void *closure, const char *what)
{
	(void)nc;
	natscall_post_text(closure, NATSIO_EV_LINK, what, strlen(what));
}

void natscall_disconnected_cb(natsConnection *nc, void *closure)
{
	natscall_link_cb(nc, closure, "down");
}

void natscall_reconnected_cb(natsConnection *nc, void *closure)
{
	natscall_link_cb(nc, closure, "up");
}

/* An asynchronous error: the server's permissions refusing a subject is
 * kept, since the call that used it only times out. */
void natscall_error_cb(natsConnection *nc, natsSubscription *sub, natsStatus err, void *closure)
{
	struct natsio *n = closure;
	const char *text = NULL;

	(void)sub;
	if (err != NATS_NOT_PERMITTED)
		return;
	natsConnection_GetLastError(nc, &text);
	uv_mutex_lock(&n->open_lock);
	snprintf(n->refused, sizeof n->refused, "%s",
	    text != NULL && text[0] != '\0' ? text : "Permissions Violation");
	uv_mutex_unlock(&n->open_lock);
}

void natscall_puback_cb(jsCtx *js, natsMsg *msg, jsPubAck *pa, jsPubAckErr *pae, void *closure)
{
	struct natsio *n = closure;
	struct natsio_puback *a = xcalloc(1, sizeof *a);
	const char *id = NULL, *dot;

	(void)js;
	a->it.kind = NATSIO_EV_PUBACK;
	if (natsMsgHeader_Get(msg, "Nats-Msg-Id", &id) == NATS_OK && id != NULL &&
	    (dot = strrchr(id, '.')) != NULL)
		a->token = strtoull(dot + 1, NULL, 10);
	a->ok = pa != NULL && pae == NULL;
	if (!a->ok)
		snprintf(a->err, sizeof a->err, "%s",
		    pae != NULL && pae->ErrText != NULL ? pae->ErrText
			: pae != NULL			? natsStatus_GetText(pae->Err)
							: "no answer");
	natsMsg_Destroy(msg);
	mailbox_to_loop(n->mb, &a->it);
}

void natscall_msg_cb(natsConnection *nc, natsSubscription *sub, natsMsg *msg, void *closure)
{
	struct natsio_subctx *sc = closure;
	int len = natsMsg_GetDataLength(msg);
	struct natsio_msg *m = xmalloc(sizeof *m + (size_t)len + 1);
	jsMsgMetaData *meta = NULL;

	(void)nc;
	(void)sub;
	m->it.kind = NATSIO_EV_MSG;
	m->partition = sc->partition;
	m->handle = msg;
	m->seq = 0;
	if (natsMsg_GetMetaData(&meta, msg) == NATS_OK) {
		m->seq = meta->Sequence.Stream;
		jsMsgMetaData_Destroy(meta);
	}
	m->len = (size_t)len;
	if (len > 0)
		memcpy(m->data, natsMsg_GetData(msg), (size_t)len);
	m->data[len] = '\0';
	mailbox_to_loop(sc->n->mb, &m->it);
}

void natscall_open_sub(struct natsio *n, int delta)
{
	uv_mutex_lock(&n->open_lock);
	n->open_subs += (unsigned)delta;
	uv_cond_signal(&n->open_cond);
	uv_mutex_unlock(&n->open_lock);
}

void natscall_closed_cb(void *closure)
{
	natscall_open_sub(closure, -1);
}

void natscall_sub_done_cb(void *closure)
{
	struct natsio_subctx *sc = closure;
	struct natsio_part *m = xcalloc(1, sizeof *m);

	natscall_open_sub(sc->n, -1);
	m->it.kind = NATSIO_EV_UNSUBSCRIBED;
	m->partition = sc->partition;
	mailbox_to_loop(sc->n->mb, &m->it);
}

static void natscall_text_cb(
    natsConnection *nc, natsSubscription *sub, natsMsg *msg, void *closure, int kind)
{
	(void)nc;
	(void)sub;
	natscall_post_text(closure, kind, natsMsg_GetData(msg), (size_t)natsMsg_GetDataLength(msg));
	natsMsg_Destroy(msg);
}

void natscall_seed_cb(natsConnection *nc, natsSubscription *sub, natsMsg *msg, void *closure)
{
	natscall_text_cb(nc, sub, msg, closure, NATSIO_EV_SEED);
}

void natscall_ctl_cb(natsConnection *nc, natsSubscription *sub, natsMsg *msg, void *closure)
{
	natscall_text_cb(nc, sub, msg, closure, NATSIO_EV_CONTROL);
}

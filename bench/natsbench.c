/* What one message costs NATS JetStream, for doc/cluster.md's model:
 *
 *   bench/natsbench URL COUNT SIZE SUBJECTS SERVER-PID
 *
 * publishes COUNT messages of SIZE bytes, asynchronously with
 * acknowledgments, round-robin over SUBJECTS subjects of a file-stored
 * stream (as cluster mode publishes to its partitions), then consumes them
 * all through one push consumer with explicit acknowledgments, and prints
 * each phase's wall time and the server's CPU time in it (from
 * /proc/SERVER-PID/stat), per message. The stream is deleted at the end. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nats/nats.h>
#include <uv.h>

static volatile int64_t natsbench_acked, natsbench_got;

static void natsbench_ack_cb(jsCtx *js, natsMsg *msg, jsPubAck *pa, jsPubAckErr *pae, void *closure)
{
	(void)js;
	(void)pa;
	(void)pae;
	(void)closure;
	__sync_fetch_and_add(&natsbench_acked, 1);
	natsMsg_Destroy(msg);
}

static void natsbench_msg_cb(natsConnection *nc, natsSubscription *sub, natsMsg *msg, void *closure)
{
	(void)nc;
	(void)sub;
	(void)closure;
	natsMsg_Ack(msg, NULL);
	natsMsg_Destroy(msg);
	__sync_fetch_and_add(&natsbench_got, 1);
}

/* The server's user+sys CPU, in seconds. */
static double natsbench_cpu(const char *pid)
{
	char path[64], buf[1024], *p;
	unsigned long ut = 0, st = 0;
	FILE *f;
	size_t n;
	int i;

	snprintf(path, sizeof path, "/proc/%s/stat", pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* Fields after the command's closing parenthesis: 14 and 15 are utime
	 * and stime, in clock ticks. */
	if ((p = strrchr(buf, ')')) == NULL)
		return 0;
	for (i = 2; i < 14 && p != NULL; i++)
		p = strchr(p + 1, ' ');
	if (p == NULL || sscanf(p, " %lu %lu", &ut, &st) != 2)
		return 0;
	return (double)(ut + st) / 100.0;
}

static void natsbench_die(const char *what, natsStatus s)
{
	fprintf(stderr, "natsbench: %s: %s\n", what, natsStatus_GetText(s));
	exit(1);
}

int main(int argc, char **argv)
{
	natsConnection *nc = NULL;
	jsCtx *js = NULL;
	jsOptions jo;
	jsStreamConfig sc;
	jsSubOptions so;
	natsSubscription *sub = NULL;
	const char *subj[] = {"nb.*"};
	char *data, subject[32];
	long count, size, subjects, i;
	uint64_t t0, t1, t2;
	double c0, c1, c2;
	natsStatus s;

	if (argc != 6) {
		fprintf(stderr, "usage: natsbench URL COUNT SIZE SUBJECTS SERVER-PID\n");
		return 2;
	}
	count = atol(argv[2]);
	size = atol(argv[3]);
	subjects = atol(argv[4]);
	if (count < 1 || size < 1 || subjects < 1)
		return 2;
	data = malloc((size_t)size);
	memset(data, 'x', (size_t)size);
	if ((s = natsConnection_ConnectTo(&nc, argv[1])) != NATS_OK)
		natsbench_die("connect", s);
	jsOptions_Init(&jo);
	jo.PublishAsync.AckHandler = natsbench_ack_cb;
	jo.PublishAsync.MaxPending = 4096;
	if ((s = natsConnection_JetStream(&js, nc, &jo)) != NATS_OK)
		natsbench_die("jetstream", s);
	jsStreamConfig_Init(&sc);
	sc.Name = "natsbench";
	sc.Subjects = subj;
	sc.SubjectsLen = 1;
	sc.Storage = js_FileStorage;
	js_DeleteStream(js, "natsbench", NULL, NULL);
	if ((s = js_AddStream(NULL, js, &sc, NULL, NULL)) != NATS_OK)
		natsbench_die("stream", s);

	c0 = natsbench_cpu(argv[5]);
	t0 = uv_hrtime();
	for (i = 0; i < count; i++) {
		snprintf(subject, sizeof subject, "nb.%ld", i % subjects);
		if ((s = js_PublishAsync(js, subject, data, (int)size, NULL)) != NATS_OK)
			natsbench_die("publish", s);
	}
	while (natsbench_acked < count)
		nats_Sleep(1);
	t1 = uv_hrtime();
	c1 = natsbench_cpu(argv[5]);
	jsSubOptions_Init(&so);
	so.ManualAck = true;
	so.Config.AckPolicy = js_AckExplicit;
	so.Config.DeliverPolicy = js_DeliverAll;
	so.Config.MaxAckPending = 4096;
	if ((s = js_Subscribe(&sub, js, "nb.*", natsbench_msg_cb, NULL, NULL, &so, NULL)) !=
	    NATS_OK)
		natsbench_die("subscribe", s);
	while (natsbench_got < count)
		nats_Sleep(1);
	t2 = uv_hrtime();
	c2 = natsbench_cpu(argv[5]);
	printf("%ld x %ld B over %ld subjects: publish %.0f msgs/s, server %.1f us/msg; "
	       "consume+ack %.0f msgs/s, server %.1f us/msg\n",
	    count, size, subjects, count / ((double)(t1 - t0) / 1e9),
	    1e6 * (c1 - c0) / (double)count, count / ((double)(t2 - t1) / 1e9),
	    1e6 * (c2 - c1) / (double)count);
	natsSubscription_Unsubscribe(sub);
	natsSubscription_Destroy(sub);
	js_DeleteStream(js, "natsbench", NULL, NULL);
	jsCtx_Destroy(js);
	natsConnection_Destroy(nc);
	nats_CloseAndWait(2000);
	free(data);
	return 0;
}

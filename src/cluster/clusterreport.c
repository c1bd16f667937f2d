/* The cluster report (clusterreport.h): every node's heartbeat and every
 * partition's holder, as a table or as JSON. */
#include <inttypes.h>
#include <stdlib.h>

#include "cluster/clusterreport.h"

void clusterreport_render(const struct natsio_snapshot *s, const char *crawl, const char *url,
    unsigned np, json_t *self, struct buf *out, int json)
{
	json_t *root = json_object(), *nodes = json_array(), *owners = json_array();
	size_t i;
	unsigned p;

	if (s != NULL) {
		for (i = 0; i < s->nnodes; i++) {
			json_t *j = json_loads(s->nodes[i].json, 0, NULL);
			if (j != NULL)
				json_array_append_new(nodes, j);
		}
		for (p = 0; p < np; p++)
			json_array_append_new(owners,
			    s->owner_id[p] != NULL ? json_string(s->owner_id[p]) : json_null());
	}
	json_object_set_new(root, "crawl_id", json_string(crawl));
	json_object_set_new(root, "url", json_string(url));
	json_object_set_new(root, "partitions", json_integer(np));
	json_object_set_new(root, "nodes", nodes);
	json_object_set_new(root, "owners", owners);
	json_object_set_new(root, "stream_messages", json_integer(s ? (json_int_t)s->msgs : 0));
	json_object_set_new(root, "stream_bytes", json_integer(s ? (json_int_t)s->bytes : 0));
	json_object_set_new(root, "stream_last_seq", json_integer(s ? (json_int_t)s->last_seq : 0));
	if (self != NULL)
		json_object_set_new(root, "this_node", self);
	if (json) {
		char *t = json_dumps(root, JSON_INDENT(1));
		buf_appends(out, t);
		buf_appendc(out, '\n');
		free(t);
	} else {
		buf_appendf(out,
		    "cluster %s at %s: %u partitions, %zu nodes; stream %" PRIu64
		    " messages, %" PRIu64 " bytes\n",
		    crawl, url, np, json_array_size(nodes), s ? s->msgs : 0, s ? s->bytes : 0);
		buf_appendf(out, "%-40s %-9s %5s %10s %8s %10s %9s %10s %10s\n", "node", "state",
		    "parts", "pages", "pages/s", "queued", "in-flight", "links-out", "received");
		for (i = 0; i < json_array_size(nodes); i++) {
			json_t *n = json_array_get(nodes, i);
			buf_appendf(out,
			    "%-40s %-9s %5zu %10" JSON_INTEGER_FORMAT
			    " %8.1f %10" JSON_INTEGER_FORMAT " %9" JSON_INTEGER_FORMAT
			    " %10" JSON_INTEGER_FORMAT " %10" JSON_INTEGER_FORMAT "%s\n",
			    json_string_value(json_object_get(n, "node")),
			    json_string_value(json_object_get(n, "state")),
			    json_array_size(json_object_get(n, "partitions")),
			    json_integer_value(json_object_get(n, "pages")),
			    json_number_value(json_object_get(n, "pages_per_s")),
			    json_integer_value(json_object_get(n, "queued")),
			    json_integer_value(json_object_get(n, "in_flight")),
			    json_integer_value(json_object_get(n, "links_sent")),
			    json_integer_value(json_object_get(n, "records_received")),
			    json_is_true(json_object_get(n, "idle")) ? " idle" : "");
		}
		buf_appends(out, "partitions:");
		for (p = 0; p < np; p++) {
			const char *id = s && s->owner_id[p] ? s->owner_id[p] : "-";
			buf_appendf(out, "%s%u=%s", p % 4 ? " " : "\n  ", p, id);
		}
		buf_appendc(out, '\n');
	}
	json_decref(root);
}

/* The last done record of each URI (donelog.h). Records are kept as text
 * as they come, with their fingerprints; the reduction walks them from the
 * end, so that the first one met of a URI is its last. */
#include <stdlib.h>
#include <string.h>

#include "cluster/donelog.h"
#include "cluster/fpset.h"
#include "lib/buf.h"
#include "lib/xmalloc.h"

struct donelog_rec {
	uint64_t fp;
	size_t off, len; /* in text; len 0: not kept */
};

struct donelog {
	int plain;
	struct fpset *done;
	struct buf text, out;
	struct donelog_rec *rec;
	size_t n, cap;
};

struct donelog *donelog_new(int plain)
{
	struct donelog *d = xcalloc(1, sizeof *d);

	d->plain = plain;
	d->done = fpset_exact();
	return d;
}

void donelog_free(struct donelog *d)
{
	if (d == NULL)
		return;
	fpset_free(d->done);
	buf_free(&d->text);
	buf_free(&d->out);
	free(d->rec);
	free(d);
}

void donelog_add(struct donelog *d, uint64_t fp, const struct handoff_done *r)
{
	struct donelog_rec *x;
	size_t off = d->text.len;

	fpset_test_add(d->done, fp);
	/* A replay needs no record of a URI without a revisit, but its last
	 * record may be one: it is counted, as nothing. */
	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 256;
		d->rec = xrealloc(d->rec, d->cap * sizeof *d->rec);
	}
	x = &d->rec[d->n++];
	x->fp = fp;
	x->off = off;
	x->len = 0;
	if ((r->revisit != NULL || d->plain) && handoff_append_done(&d->text, r) == 0)
		x->len = d->text.len - off;
}

int donelog_has(const struct donelog *d, uint64_t fp)
{
	return fpset_has(d->done, fp);
}

size_t donelog_count(const struct donelog *d)
{
	return fpset_count(d->done);
}

const char *donelog_finish(struct donelog *d, size_t *len)
{
	struct fpset *met = fpset_exact();
	unsigned char *keep = xcalloc(d->n ? d->n : 1, 1);
	size_t i;

	for (i = d->n; i-- > 0;)
		if (!fpset_test_add(met, d->rec[i].fp))
			keep[i] = d->rec[i].len > 0;
	buf_reset(&d->out);
	for (i = 0; i < d->n; i++)
		if (keep[i])
			buf_append(&d->out, d->text.data + d->rec[i].off, d->rec[i].len);
	fpset_free(met);
	free(keep);
	buf_free(&d->text);
	free(d->rec);
	d->rec = NULL;
	d->n = d->cap = 0;
	*len = d->out.len;
	return d->out.len > 0 ? d->out.data : "";
}

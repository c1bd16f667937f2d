/* libFuzzer target for src/lib/rules.c: the input's first line is a rule
 * ("NAME TEST ARGUMENT"), the rest a URI and then a hop path. Checks that
 * nothing crashes, that rules_check and rules_add agree, that a rule that
 * compiles matches in bounded time (PCRE2's limits), and that what matches
 * is a valid index. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *uri, *hops;
	struct rules *r;
	struct rules_uri u;
	char *err = NULL;
	int checked, added, i;
	const char *path;

	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	uri = strchr(text, '\n');
	if (uri != NULL)
		*uri++ = '\0';
	else
		uri = text + strlen(text);
	hops = strchr(uri, '\n');
	if (hops != NULL)
		*hops++ = '\0';
	else
		hops = uri + strlen(uri);
	checked = rules_check(text, &err);
	free(err);
	err = NULL;
	r = rules_new();
	added = rules_add(r, size & 1, text, &err);
	if ((checked == 0) != (added == 0) || (added < 0 && err == NULL))
		abort();
	free(err);
	memset(&u, 0, sizeof u);
	u.uri = uri;
	u.len = strlen(uri);
	/* Any bytes stand for the SURT and the path: the matcher must not
	 * depend on their being well formed. */
	u.surt = uri;
	u.surt_len = u.len;
	path = strchr(uri, '/');
	u.path = path != NULL ? path : uri;
	u.path_len = strlen(u.path);
	u.hops = hops;
	u.flags = size & 2 ? RULES_NOFOLLOW : 0;
	i = rules_match(r, &u);
	if (i < -1 || i >= (int)rules_count(r))
		abort();
	rules_free(r);
	free(text);
	return 0;
}

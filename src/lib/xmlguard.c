/* The guarded expat parser the XML readers share (see xmlguard.h). Written
 * once here because the sitemap and feed parsers had grown the same
 * byte-limited parse loop and entity refusals side by side. */
#include "lib/xmlguard.h"
#include "lib/xmalloc.h"

#include <stdio.h>
#include <stdlib.h>

struct xmlguard {
	XML_Parser xp;
	xmlguard_fail_cb fail;
	void *arg;
	uint64_t max_bytes, bytes;
	int stopped;
};

/* A DOCTYPE may name a DTD, but no reader here needs entities: declaring
 * one ends the parse before anything is expanded. */
static void XMLCALL xmlguard_entity_cb(void *user, const XML_Char *name, int param,
    const XML_Char *value, int value_len, const XML_Char *base, const XML_Char *system_id,
    const XML_Char *public_id, const XML_Char *notation)
{
	struct xmlguard *g = user;

	(void)name;
	(void)param;
	(void)value;
	(void)value_len;
	(void)base;
	(void)system_id;
	(void)public_id;
	(void)notation;
	g->fail(g->arg, XMLGUARD_MALFORMED, "entity declarations are refused");
}

/* With an external DTD (never read), expat would skip the references it
 * cannot resolve and silently change the text they stood in. */
static void XMLCALL xmlguard_skipped_cb(void *user, const XML_Char *name, int param)
{
	struct xmlguard *g = user;

	(void)name;
	(void)param;
	g->fail(g->arg, XMLGUARD_MALFORMED, "reference to an undeclared entity");
}

struct xmlguard *xmlguard_new(char ns_sep, uint64_t max_bytes, xmlguard_fail_cb fail, void *arg)
{
	static const XML_Memory_Handling_Suite mem = {xmalloc, xrealloc, free};
	struct xmlguard *g = xcalloc(1, sizeof(*g));

	g->fail = fail;
	g->arg = arg;
	g->max_bytes = max_bytes;
	g->xp = XML_ParserCreate_MM(NULL, &mem, (XML_Char[]){ns_sep, '\0'});
	if (g->xp == NULL)
		abort();
	XML_SetUserData(g->xp, g);
	XML_SetEntityDeclHandler(g->xp, xmlguard_entity_cb);
	XML_SetSkippedEntityHandler(g->xp, xmlguard_skipped_cb);
	return g;
}

void xmlguard_handlers(struct xmlguard *g, XML_StartElementHandler start, XML_EndElementHandler end,
    XML_CharacterDataHandler text)
{
	XML_SetElementHandler(g->xp, start, end);
	XML_SetCharacterDataHandler(g->xp, text);
}

void xmlguard_set_max_bytes(struct xmlguard *g, uint64_t max_bytes)
{
	if (max_bytes > 0)
		g->max_bytes = max_bytes;
}

void *xmlguard_arg(void *user_data)
{
	return ((struct xmlguard *)user_data)->arg;
}

void xmlguard_stop(struct xmlguard *g)
{
	g->stopped = 1;
	XML_StopParser(g->xp, XML_FALSE);
}

void xmlguard_drain(struct xmlguard *g)
{
	if (!g->stopped)
		(void)XML_Parse(g->xp, "", 0, 1);
}

void xmlguard_parse(struct xmlguard *g, const char *data, size_t len, int final)
{
	size_t room = g->bytes < g->max_bytes ? (size_t)(g->max_bytes - g->bytes) : 0;
	int over = len > room;

	if (g->stopped)
		return;
	if (over) {
		len = room;
		final = 0;
	}
	g->bytes += len;
	while (!g->stopped && (len > 0 || final)) {
		/* XML_Parse takes an int length. */
		int n = len > (1u << 30) ? 1 << 30 : (int)len;
		int last = final && (size_t)n == len;

		if (XML_Parse(g->xp, data, n, last) != XML_STATUS_OK) {
			if (!g->stopped) {
				char why[128];

				snprintf(why, sizeof(why), "line %lu: %s",
				    (unsigned long)XML_GetCurrentLineNumber(g->xp),
				    XML_ErrorString(XML_GetErrorCode(g->xp)));
				g->fail(g->arg, XMLGUARD_MALFORMED, why);
			}
			return;
		}
		data += n;
		len -= (size_t)n;
		if (last)
			break;
	}
	if (over && !g->stopped) {
		char why[64];

		xmlguard_drain(g);
		snprintf(why, sizeof(why), "over %llu bytes", (unsigned long long)g->max_bytes);
		g->fail(g->arg, XMLGUARD_LIMIT, why);
	}
}

uint64_t xmlguard_bytes(const struct xmlguard *g)
{
	return g->bytes;
}

void xmlguard_free(struct xmlguard *g)
{
	if (g == NULL)
		return;
	XML_ParserFree(g->xp);
	free(g);
}

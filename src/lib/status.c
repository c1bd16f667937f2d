/* The tables behind status.h, expanded from its X-macro lists. */
#include <build-config.h>

#include "lib/status.h"

#include <assert.h>
#include <stddef.h>

struct status_code_row {
	int code;
	const char *name, *message;
};

static const struct status_code_row status_codes[] = {
#define STATUS_X(name, code, msg) {(code), #name, (msg)},
    STATUS_CODES(STATUS_X)
#undef STATUS_X
};

struct status_cause_row {
	int code;
	enum status_group group;
	const char *word, *message, *settings;
};

static const struct status_cause_row status_causes[CAUSE_COUNT] = {
#define STATUS_X(name, code, group, word, msg, settings) \
	[CAUSE_##name] = {(code), STATUS_GROUP_##group, (word), (msg), (settings)},
    STATUS_CAUSES(STATUS_X)
#undef STATUS_X
};

struct status_group_row {
	const char *word, *label, *settings;
};

static const struct status_group_row status_groups[STATUS_GROUP_COUNT] = {
#define STATUS_X(name, word, label, settings) [STATUS_GROUP_##name] = {(word), (label), (settings)},
    STATUS_GROUPS(STATUS_X)
#undef STATUS_X
};

static const struct status_code_row *status_code_find(int code)
{
	for (size_t i = 0; i < sizeof status_codes / sizeof status_codes[0]; i++)
		if (status_codes[i].code == code)
			return &status_codes[i];
	return NULL;
}

const char *status_message(int code)
{
	const struct status_code_row *r = status_code_find(code);

	if (r != NULL)
		return r->message;
	return code >= 100 && code <= 999 ? "HTTP status" : NULL;
}

const char *status_name(int code)
{
	const struct status_code_row *r = status_code_find(code);

	return r != NULL ? r->name : NULL;
}

/* Callers pass enum values they hold: anything else is a bug of theirs. */
static const struct status_cause_row *status_cause_row(enum status_cause c)
{
	assert((unsigned)c < CAUSE_COUNT);
	return &status_causes[c];
}

int status_cause_code(enum status_cause c)
{
	return status_cause_row(c)->code;
}

enum status_group status_cause_group(enum status_cause c)
{
	return status_cause_row(c)->group;
}

const char *status_cause_word(enum status_cause c)
{
	return status_cause_row(c)->word;
}

const char *status_cause_message(enum status_cause c)
{
	return status_cause_row(c)->message;
}

const char *status_cause_settings(enum status_cause c)
{
	return status_cause_row(c)->settings;
}

enum status_cause status_cause_of(int code)
{
	switch (code) {
	case STATUS_DNS_FAILED:
	case STATUS_DNS_PREREQ:
		return CAUSE_DNS_FAILED;
	case STATUS_CONNECT_FAILED:
		return CAUSE_CONNECT_FAILED;
	case STATUS_CONNECT_LOST:
		return CAUSE_CONNECTION_LOST;
	case STATUS_TIMEOUT:
		return CAUSE_HEAD_TIMEOUT;
	case STATUS_UNFETCHABLE:
		return CAUSE_BAD_URL;
	case STATUS_ROBOTS_PRECLUDED:
		return CAUSE_ROBOTS_DISALLOWED;
	default:
		return code >= 400 && code <= 599 ? CAUSE_HTTP_ERROR : CAUSE_NONE;
	}
}

static const struct status_group_row *status_group_row(enum status_group g)
{
	assert((unsigned)g < STATUS_GROUP_COUNT);
	return &status_groups[g];
}

const char *status_group_word(enum status_group g)
{
	return status_group_row(g)->word;
}

const char *status_group_label(enum status_group g)
{
	return status_group_row(g)->label;
}

const char *status_group_settings(enum status_group g)
{
	return status_group_row(g)->settings;
}

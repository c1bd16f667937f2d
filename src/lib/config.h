/* The configuration: every key of src/lib/config-keys.h with its default, values
 * from an INI file and from --set, and [override "SURT-PREFIX"] sections that
 * change per-URI and per-queue keys for URIs whose scheme-less SURT
 * ("gov,nasa,www,)/path") starts with the prefix (longest prefix wins, key by
 * key, as Heritrix's sheets do; "http://(gov," is accepted as "gov,").
 *
 * Errors come back as 0 / negative with a message for a person, naming the
 * file, line and key: "tern.conf:12: politeness.min-delay-ms: expected an
 * integer from 0 to 86400000, got 'soon'". */
#ifndef TERN_CONFIG_H
#define TERN_CONFIG_H
#include <stdint.h>
#include <stddef.h>

#include "lib/buf.h"

enum config_type { CT_BOOL, CT_INT, CT_DOUBLE, CT_STR, CT_ENUM, CT_INTLIST };

enum config_key {
#define X(id, sec, key, type, def, min, max, choices, ovr) CK_##id,
#include "lib/config-keys.h"
#undef X
	CK__COUNT
};

struct config;

struct config *config_new(void);
void config_free(struct config *c);

/* Reads INI text (a file's contents; the reading is the caller's, e.g.
 * job_config_load) over the current values; origin names it in errors
 * ("tern.conf:12: ..."). */
int config_load_text(
    struct config *c, const char *text, size_t len, const char *origin, char **err);
/* Applies "section.key=value" (command-line --set, or a mid-crawl change). */
int config_set(struct config *c, const char *assignment, char **err);
/* Sets one key from its text form; origin names where it came from in errors. */
int config_set_key(
    struct config *c, const char *name, const char *value, const char *origin, char **err);
/* The effective configuration, every key with its value, as INI text
 * appended to out (the text config_load_text reads back). */
void config_format(const struct config *c, struct buf *out);
/* Bumped by every change after loading, so holders of derived state (such as
 * the frontier re-judging retired queues) can notice a settings change. */
unsigned config_generation(const struct config *c);

/* 1 for a key read only when the crawl starts ("crawl.max-connections",
 * any "warc." key...): a change made mid-crawl applies on resume. */
int config_key_at_start(const char *name);
/* For a key fixed for the life of a job ("crawl.mode"...), why it is;
 * else NULL. Such a key cannot change mid-crawl nor on resume. */
const char *config_key_for_job(const char *name);
/* Lookup by name ("politeness.min-delay-ms"); -1 if unknown. */
int config_find(const char *name);
const char *config_name(enum config_key k);
enum config_type config_type(enum config_key k);
/* CT_ENUM: the choices, '|'-separated ("" for other types). */
const char *config_choices(enum config_key k);
/* Any key's global value as tern.conf text. */
const char *config_text(const struct config *c, enum config_key k);
/* The reject and accept rules of the [rules] section ("rules.reject" and
 * "rules.accept" in --set), in order: how many, and the text of the one at
 * i ("NAME TEST ARGUMENT", lib/rules.h) with *accept set to its decision.
 * Each was checked when it was read. */
size_t config_rule_count(const struct config *c);
const char *config_rule(const struct config *c, size_t i, int *accept);
/* The [rules] section as INI text appended to out ("" if there are none). */
void config_format_rules(const struct config *c, struct buf *out);
/* The [override "SURT"] sections as INI text appended to out ("" if none):
 * what config_format writes after the keys. */
void config_format_overrides(const struct config *c, struct buf *out);

/* Global values. */
int config_bool(const struct config *c, enum config_key k);
int64_t config_int(const struct config *c, enum config_key k);
double config_double(const struct config *c, enum config_key k);
/* CT_STR and CT_ENUM: the text; owned by the config. */
const char *config_str(const struct config *c, enum config_key k);
/* CT_ENUM: index of the value in the choices list. */
int config_enum(const struct config *c, enum config_key k);
/* CT_INTLIST: the values and their count. */
const int64_t *config_intlist(const struct config *c, enum config_key k, size_t *n);
/* A string key holding a list of names separated by commas or spaces
 * (console.host-names), split into a NULL-terminated array of *n copies;
 * free it with config_names_free. */
char **config_names(const struct config *c, enum config_key k, size_t *n);
void config_names_free(char **names);

/* The same, as seen by a URI or queue whose scheme-less SURT is surt
 * (NULL = global). */
int config_bool_for(const struct config *c, const char *surt, enum config_key k);
int64_t config_int_for(const struct config *c, const char *surt, enum config_key k);
double config_double_for(const struct config *c, const char *surt, enum config_key k);
const char *config_str_for(const struct config *c, const char *surt, enum config_key k);
int config_enum_for(const struct config *c, const char *surt, enum config_key k);
const int64_t *config_intlist_for(
    const struct config *c, const char *surt, enum config_key k, size_t *n);
/* Number of override sections; 0 lets hot paths skip the prefix search. */
size_t config_override_count(const struct config *c);

#endif

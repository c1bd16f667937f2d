/* The console's settings page (consolesettings.h). */
#include "ops/consolesettings.h"
#include "lib/config.h"
#include "lib/urlcreds.h"
#include "ops/html.h"

#include <stdlib.h>
#include <string.h>

/* A <select> of the choices (enum) or true/false (bool), else a text
 * field; name, value and choices are escaped. */
static void consolesettings_input(
    struct buf *out, const char *name, enum config_key k, const char *value, int editable)
{
	enum config_type t = config_type(k);
	const char *choices = t == CT_ENUM ? config_choices(k) : t == CT_BOOL ? "true|false" : NULL;

	if (choices == NULL) {
		buf_appends(out, "<input type=\"text\" name=\"");
		html_texts(out, name);
		buf_appends(out, "\" value=\"");
		html_texts(out, value);
		buf_appends(out, editable ? "\">" : "\" disabled>");
		return;
	}
	buf_appends(out, "<select name=\"");
	html_texts(out, name);
	buf_appends(out, editable ? "\">" : "\" disabled>");
	while (*choices != '\0') {
		size_t n = strcspn(choices, "|");
		int sel = strlen(value) == n && strncmp(value, choices, n) == 0;
		buf_appends(out, sel ? "<option selected>" : "<option>");
		html_text(out, choices, n);
		buf_appends(out, "</option>");
		choices += n + (choices[n] == '|');
	}
	buf_appends(out, "</select>");
}

void consolesettings_page(const struct config *cfg, const struct consoleview_rq *q)
{
	struct buf sections = BUF_INIT, overrides = BUF_INIT, rules = BUF_INIT, rl = BUF_INIT;
	const char *section = NULL;
	int editable = q->live;

	for (int k = 0; k < CK__COUNT; k++) {
		const char *name = config_name((enum config_key)k), *dot = strchr(name, '.');
		size_t sl = (size_t)(dot - name);

		if (section == NULL || strncmp(section, name, sl) != 0 || section[sl] != '.') {
			if (section != NULL)
				buf_appends(&sections, "</table></fieldset>\n");
			buf_appends(&sections, "<fieldset><legend>[");
			html_text(&sections, name, sl);
			buf_appends(&sections, "]</legend><table>\n");
			section = name;
		}
		buf_appends(&sections, "<tr><td class=\"k\"><label>");
		html_texts(&sections, name);
		buf_appends(&sections, "</label></td><td>");
		if (k == CK_CLUSTER_URL && urlcreds_has_secret(config_text(cfg, CK_CLUSTER_URL))) {
			/* A password or token is never shown: the URL appears
			 * with it hidden, and cannot be edited here (a form
			 * sent back would store the hidden text). */
			char *shown = urlcreds_hide(config_text(cfg, CK_CLUSTER_URL));
			consolesettings_input(&sections, name, (enum config_key)k, shown, 0);
			free(shown);
		} else {
			consolesettings_input(&sections, name, (enum config_key)k,
			    config_text(cfg, (enum config_key)k),
			    editable && config_key_for_job(name) == NULL);
		}
		buf_appends(&sections, "</td><td class=\"when\">");
		buf_appends(&sections,
		    config_key_for_job(name) != NULL ? "fixed for the job"
			: config_key_at_start(name)  ? "on resume"
						     : "now");
		buf_appends(&sections, "</td></tr>\n");
	}
	if (section != NULL)
		buf_appends(&sections, "</table></fieldset>\n");
	config_format_overrides(cfg, &overrides);
	config_format_rules(cfg, &rules);
	/* Without the section header and its leading blank line. */
	if (rules.len > 0) {
		const char *body = strstr(rules.data, "[rules]\n");

		body = body != NULL ? body + 8 : rules.data;
		html_text(&rl, body, rules.len - (size_t)(body - rules.data));
	} else {
		buf_appends(&rl, "(none)");
	}
	{
		struct buf ov = BUF_INIT;
		html_text(&ov, overrides.data != NULL ? overrides.data : "", overrides.len);
		if (overrides.len == 0)
			buf_appends(&ov, "(none)");
		{
			const struct tmpl_var v[] = {
			    {"note",
				editable
				    ? "A change takes effect at once unless marked "
				      "\"on resume\"; tern.conf in the job directory is rewritten with it. "
				      "Descriptions of every key: tern.conf(5)."
				    : "The crawl is not running: edit tern.conf in the job directory, or "
				      "resume with --set (tern resume JOBDIR --set KEY=VALUE), to change settings.",
				0},
			    {"editable", editable ? "1" : "0", 0},
			    {"disabled", editable ? "" : "disabled", 1},
			    {"sections", sections.data, 1},
			    {"overrides", ov.data, 1},
			    {"rules", rl.data, 1},
			};
			consoleview_page(
			    q, "settings", "Settings", "settings.html", v, sizeof v / sizeof v[0]);
		}
		buf_free(&ov);
	}
	buf_free(&sections);
	buf_free(&overrides);
	buf_free(&rules);
	buf_free(&rl);
}

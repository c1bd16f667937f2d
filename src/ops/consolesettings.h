/* The console's settings page: every configuration key with its value, in
 * one form per section whose changes the page's script posts to the
 * control socket's POST /settings (all checked before any applies; each
 * applies now or on resume, as the answer says); the [override] sections
 * read-only. Offline the form is shown disabled. */
#ifndef TERN_CONSOLESETTINGS_H
#define TERN_CONSOLESETTINGS_H

#include "ops/consoleview.h"

struct config;

void consolesettings_page(const struct config *cfg, const struct consoleview_rq *q);

#endif

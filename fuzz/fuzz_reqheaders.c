/* libFuzzer target for the settings that shape what tern sends: the bytes
 * as fetch.extra-headers (checked, then built into header lines and put
 * into a request head, src/lib/reqheaders.c), as a proxy URL with and
 * without userinfo, and as a no_proxy list (src/lib/proxy.c). */
#include <build-config.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/proxy.h"
#include "lib/reqheaders.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	const char *why;
	struct proxy p;

	memcpy(s, data, size);
	s[size] = '\0';
	if (reqheaders_check_extra(s, &why) == 0) {
		struct buf lines = BUF_INIT, head = BUF_INIT;
		reqheaders_build("", "", s, &lines);
		buf_appends(&head, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
		reqheaders_insert(&head, lines.data ? lines.data : "", lines.len);
		buf_free(&lines);
		buf_free(&head);
	}
	reqheaders_check_from(s, &why);
	for (int userinfo = 0; userinfo < 2; userinfo++)
		if (proxy_parse(s, userinfo, &p, &why) == 0) {
			proxy_bypass(s, p.host);
			proxy_clear(&p);
		}
	proxy_bypass(s, "www.example.org");
	free(s);
	return 0;
}

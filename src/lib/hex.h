/* The value of one hexadecimal digit, shared by the parsers that decode
 * percent-escapes and character references (robots.txt, entities, control
 * requests). Header-only: it is one comparison chain, inlined at each use. */
#ifndef TERN_HEX_H
#define TERN_HEX_H

/* 0-15 for [0-9a-fA-F], -1 for anything else. */
static inline int hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif

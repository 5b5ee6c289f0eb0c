/*
 * Help text fitted to the terminal: --help's paragraphs and its two-column
 * lists (an option and what it does) wrapped at blanks to the width, with a
 * hanging indent under the description's column, as GNU tools' and fio's
 * help are.  A word wider than the whole width (--ioengine's list of
 * engines) is the only thing ever broken, after a '|' or ',' where it has
 * one; a shorter word that does not fit its column starts left of it.
 */
#include "cmds/help.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* The description column of a list, and the narrowest description worth keeping beside its term. */
#define ITEM_MIN_TEXT 40
#define ITEM_NARROW_INDENT 8

unsigned help_width(void)
{
	/* As GNU ls: the terminal's width, else COLUMNS (a pipe, a script), else 80. */
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 0)
		return ws.ws_col;
	const char *c = getenv("COLUMNS");
	char *end = NULL;
	unsigned long v = c && *c ? strtoul(c, &end, 10) : 0;
	if (v > 0 && v <= 100000 && end && !*end)
		return (unsigned)v;
	return 80;
}

/* A word's n bytes, HELP_NBSP printed as the blank it stands for. */
static void put_word(FILE *f, const char *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fputc(w[i] == HELP_NBSP ? ' ' : w[i], f);
}

/* Where a word of n bytes that does not fit in room is cut: after its last '|' or ',' inside room, else at room. */
static size_t cut_at(const char *w, size_t n, size_t room)
{
	for (size_t i = room < n ? room : n; i > 1; i--)
		if (w[i - 1] == '|' || w[i - 1] == ',')
			return i;
	return room;
}

void help_wrap(FILE *f, unsigned width, unsigned col, unsigned indent, const char *text)
{
	/* A line too narrow for the indent: continuation lines start at the margin. */
	if (indent + 10 > width)
		indent = 0;
	bool first = true; /* nothing of the text on this line yet */
	for (const char *p = text; *p;) {
		if (*p == ' ' || *p == HELP_NBSP) { /* a HELP_NBSP here: its group was split, below */
			p++;
			continue;
		}
		if (*p == '\n') { /* a break the text asks for */
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent, first = true;
			p++;
			continue;
		}
		size_t n = strcspn(p, " \n");
		/* Words kept together (HELP_NBSP) that no line past the indent holds are words again. */
		if (n > width - indent && memchr(p, HELP_NBSP, n))
			n = strcspn(p, " \n" HELP_NBSP_STR);
		/*
		 * The next line when the word does not fit after what is there; a word
		 * that fits the width but not past the indent starts further left.
		 */
		if (col + !first + n > width && (col > indent || n > width - col) && n <= width) {
			unsigned at = indent + n > width ? (unsigned)(width - n) : indent;
			fprintf(f, "\n%*s", (int)at, "");
			col = at, first = true;
		} else if (col + !first + n > width && col > indent) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent, first = true;
		}
		if (!first)
			fputc(' ', f), col++;
		/*
		 * A word wider than the whole width is cut (the only break inside a
		 * word), the rest on lines of its own.
		 */
		for (bool cut = n > width; cut && col + n > width && width > col;) {
			size_t k = cut_at(p, n, width - col);
			put_word(f, p, k);
			fprintf(f, "\n%*s", (int)indent, "");
			p += k, n -= k;
			col = indent;
		}
		put_word(f, p, n);
		col += (unsigned)n, first = false;
		p += n;
	}
	fputc('\n', f);
}

void help_item(FILE *f, unsigned width, unsigned column, const char *term, const char *text)
{
	/* Too narrow for two columns: the description goes under its term, man(1)-style. */
	if (width < column + ITEM_MIN_TEXT)
		column = ITEM_NARROW_INDENT;
	if (2 + strlen(term) + 1 <= column) {
		fprintf(f, "  %-*s", (int)(column - 2), term);
		help_wrap(f, width, column, column, text);
		return;
	}
	fprintf(f, "  ");
	help_wrap(f, width, 2, 4, term);
	if (*text) {
		fprintf(f, "%*s", (int)column, "");
		help_wrap(f, width, column, column, text);
	}
}

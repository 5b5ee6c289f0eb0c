/*
 * The HTML report's own script and style, kept as plain files beside this
 * one (html.js, html.css) and embedded at build time, NUL-terminated.
 */
#include "report/html.h"

__asm__(".section .rodata\n"
	".global html_js\n"
	".type html_js, @object\n"
	"html_js:\n"
	".incbin \"src/report/html.js\"\n"
	".byte 0\n"
	".global html_css\n"
	".type html_css, @object\n"
	"html_css:\n"
	".incbin \"src/report/html.css\"\n"
	".byte 0\n"
	".previous\n");

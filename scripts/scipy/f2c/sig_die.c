/* sig_die for libf2c on WASI (pybox): f2c's runtime calls it on a fatal
 * I/O or runtime error. libf2c's own version installs a signal handler
 * before aborting; WASI has no signals, so this one only reports and stops,
 * as libf2c does on other systems. */
#include <stdio.h>
#include <stdlib.h>

void f_exit(void);

void sig_die(const char *s, int kill)
{
	fprintf(stderr, "%s\n", s);
	f_exit();
	fflush(stderr);
	if (kill)
		abort();
	exit(1);
}

/* pybox: WASI has no sysinfo(); OpenBLAS asks it for the machine's memory size. */
#ifndef PYBOX_SYS_SYSINFO_H
#define PYBOX_SYS_SYSINFO_H
#include <errno.h>
struct sysinfo { unsigned long totalram; unsigned int mem_unit; };
static inline int sysinfo(struct sysinfo *info) { (void)info; errno = ENOSYS; return -1; }
#endif
